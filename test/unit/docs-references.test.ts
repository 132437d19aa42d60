/**
 * What the docs and the code's comments name must exist: every repository path in README.md, docs/, the
 * SDK's README and a comment of the code, and every `npm run <script>` they tell a reader to run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DYNAMODB_BUDGETS } from '../../bench/dynamodb-budgets';

const ROOT = resolve(__dirname, '../..');
const TOP_FOLDERS = [
  'lambda',
  'shared',
  'lib',
  'bin',
  'local',
  'openapi',
  'scripts',
  'portal',
  'clients',
  'test',
  'docs',
  'bench',
  'config',
  '.ci',
  '.github',
];
const CODE_FOLDERS = ['lambda', 'shared', 'lib', 'bin', 'local', 'openapi', 'scripts', 'portal', 'clients/typescript/src', 'test', 'bench'];
const SKIPPED = new Set(['node_modules', 'generated', 'dist', 'fixtures']);

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path, keep) : keep(entry.name) ? [path] : [];
  });
}

const DOCS = ['README.md', 'clients/typescript/README.md', ...filesUnder('docs', (name) => name.endsWith('.md'))];
const CODE = CODE_FOLDERS.flatMap((folder) => filesUnder(folder, (name) => /\.(ts|mjs|js)$/.test(name)));

/** The comment lines of a source file (`//`, and the lines of a block comment); a doc is all prose. */
const proseOf = (file: string): string => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (file.endsWith('.md')) return text;
  return text
    .split('\n')
    .filter((line) => /^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
};

const PATH = new RegExp(`(?<![\\w./#@-])((?:${TOP_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w.@/*<>{}-]*[\\w/*>}])`, 'g');

/** A path as a reader would take it: globs, placeholders and line anchors are not paths. */
const checkable = (path: string): boolean => !/[*<>{}]|\.\.\./.test(path);

interface Named {
  readonly file: string;
  readonly name: string;
}

const pathsNamed: Named[] = [...DOCS, ...CODE].flatMap((file) =>
  [...proseOf(file).matchAll(PATH)].map((match) => ({ file, name: match[1] ?? '' })).filter(({ name }) => checkable(name)),
);

test('every repository path a doc or a comment names exists', () => {
  expect(pathsNamed.length).toBeGreaterThan(100);
  const missing = pathsNamed.filter(({ name }) => !existsSync(join(ROOT, name.replace(/#.*$/, ''))));
  expect(missing).toEqual([]);
});

const scriptsOf = (folder: string): Record<string, string> =>
  (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};

/** The scripts a command in `file` may mean: its own package's (the SDK's README) and the repository's. */
function scriptsFor(file: string): Record<string, string> {
  let folder = dirname(join(ROOT, file));
  while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
  return { ...scriptsOf(ROOT), ...scriptsOf(folder) };
}

test('every `npm run <script>` a doc or a comment names is a script of its package', () => {
  const named: Named[] = [...DOCS, ...CODE].flatMap((file) =>
    [...proseOf(file).matchAll(/npm run (?:--?[\w-]+ )*(\w[\w:-]*\w)/g)].map((match) => ({ file, name: match[1] ?? '' })),
  );
  expect(named.length).toBeGreaterThan(20);
  expect(named.filter(({ file, name }) => !(name in scriptsFor(file)))).toEqual([]);
});

test('the checks read the files they should', () => {
  expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/deploy.md', 'docs/testing.md']));
  expect(CODE.map((file) => relative(ROOT, join(ROOT, file)))).toEqual(expect.arrayContaining(['lambda/handlers/create-pet.ts']));
});

test("docs/performance.md's DynamoDB table states exactly the bench's budgets", () => {
  const page = readFileSync(join(ROOT, 'docs/performance.md'), 'utf8');
  const table = page.slice(page.indexOf('| Request '), page.indexOf('**Budget:** each row'));
  const rows = table
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim().replaceAll('`', '')));
  const stated = Object.fromEntries(
    rows.map(([, request, calls, units]) => [
      request,
      { calls: Number(calls?.replace('≤ ', '')), units: Number(units?.replace('≤ ', '')) },
    ]),
  );
  expect(stated).toEqual(DYNAMODB_BUDGETS);
});
