/**
 * .github/workflows/ against the project: every `npm run <script>` a workflow runs is a script of
 * package.json, and every `bash <file>` a file of the repository (actionlint, `npm run lint:workflows`,
 * checks the workflows themselves but knows nothing of the project).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const workflows = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => ({ name, text: readFileSync(join(WORKFLOWS, name), 'utf8') }));
const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts);

/** Each `<command> <argument>` a workflow's text holds, as `<workflow>: <argument>`. */
const calls = (command: RegExp): string[] =>
  workflows.flatMap(({ name, text }) => [...text.matchAll(command)].map((match) => `${name}: ${match[1] ?? ''}`));
const argumentOf = (call: string): string => call.slice(call.indexOf(': ') + 2);

it('every npm script a workflow runs is in package.json', () => {
  const npmRuns = calls(/\bnpm run(?: --silent| -s)? ([\w:.-]+)/g);
  expect(npmRuns.map(argumentOf)).toEqual(expect.arrayContaining(['cdk', 'smoke']));
  expect(npmRuns.filter((call) => !scripts.includes(argumentOf(call)))).toEqual([]);
});

it('every file a workflow runs with bash is in the repository', () => {
  const bashRuns = calls(/\bbash ([\w./-]+)/g);
  expect(bashRuns.map(argumentOf)).toContain('.ci/run');
  expect(bashRuns.filter((call) => !existsSync(join(ROOT, argumentOf(call))))).toEqual([]);
});
