/**
 * .github/workflows/ against the project: every `npm run <script>` a workflow runs is a script of
 * package.json, and every `bash <file>` a file of the repository (actionlint, `npm run lint:workflows`,
 * checks the workflows themselves but knows nothing of the project); and the promotion the pipeline makes, read from
 * the parsed workflow.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

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

describe('the pipeline promotes one build', () => {
  interface Step {
    readonly uses?: string;
    readonly run?: string;
    readonly if?: string;
    readonly with?: Record<string, string | number>;
    readonly env?: Record<string, string>;
  }
  interface Job {
    readonly needs?: string | string[];
    readonly environment?: string;
    readonly steps: Step[];
  }
  const { jobs } = parse(readFileSync(join(WORKFLOWS, 'pipeline.yml'), 'utf8')) as { jobs: Record<string, Job> };
  const runs = (job: string): string[] => (jobs[job]?.steps ?? []).map((step) => step.run ?? `uses ${step.uses ?? ''}`);
  const indexOf = (job: string, pattern: RegExp): number => runs(job).findIndex((run) => pattern.test(run));
  const needs = (job: string): string[] => [jobs[job]?.needs ?? []].flat();

  it('one job synthesizes, both stages from one commit, and keeps the assemblies and the CDK CLI as the run artifact `release`', () => {
    const synthesizing = Object.keys(jobs).filter((job) => runs(job).some((run) => /\bcdk -- synth\b|synth:stages/.test(run)));
    expect(synthesizing).toEqual(['build']);
    expect(runs('build').join('\n')).toMatch(
      /for stage in staging prod; do\s+npm run cdk -- synth .*--output "release\/assembly\/\$stage"/,
    );
    expect(runs('build').join('\n')).toContain('cp -R node_modules/aws-cdk release/cdk');
    // In the Region the stages deploy to (a front door's edge stack is placed from it), without AWS credentials.
    const synth = jobs.build?.steps.find((step) => step.run?.includes('cdk -- synth'));
    expect(synth?.env).toEqual({ AWS_REGION: '${{ vars.AWS_REGION }}', AWS_EC2_METADATA_DISABLED: 'true' });
    expect(jobs.build?.steps.some((step) => step.uses?.startsWith('aws-actions/configure-aws-credentials@'))).toBe(false);
    const upload = jobs.build?.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with).toMatchObject({ name: 'release', path: 'release/' });
  });

  it.each(['staging', 'prod'])(
    '%s deploys its assembly from that artifact, with nothing installed, synthesized or bundled before',
    (stage) => {
      expect(needs(stage)).toContain('build');
      const download = jobs[stage]?.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'));
      expect(download?.with).toEqual({ name: 'release', path: 'release' });
      const deploy = indexOf(stage, /cdk deploy/);
      expect(runs(stage)[deploy]).toBe(`node release/cdk/bin/cdk deploy --app release/assembly/${stage} --all --require-approval never`);
      expect(
        runs(stage)
          .slice(0, deploy)
          .filter((run) => /\bnpm\b|npx|synth|esbuild/.test(run)),
      ).toEqual([]);
    },
  );

  it.each(['staging', 'prod'])(
    '%s refuses a commit older than the one it runs: the promotion check first, the commit recorded after the deploy',
    (stage) => {
      const check = indexOf(stage, /scripts\/promotion-check\.ts/);
      const deploy = indexOf(stage, /cdk deploy/);
      const record = indexOf(stage, new RegExp(`deployed-commit\\.sh ${stage} "\\$GITHUB_SHA"`));
      expect(runs(stage)[check]).toContain(`deployed=$(bash scripts/deployed-commit.sh ${stage})`);
      expect(runs(stage)[check]).toContain(`--stage ${stage} --candidate "$GITHUB_SHA" --deployed "$deployed"`);
      expect([check >= 0, check < deploy, deploy < record]).toEqual([true, true, true]);
      // merge-base needs the history.
      expect(jobs[stage]?.steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
    },
  );

  it("prod takes only what passed staging: it needs staging's job, waits for production's reviewers, and a failed staging says so on the run", () => {
    expect(needs('prod')).toEqual(['build', 'staging']);
    expect(jobs.prod?.environment).toBe('production');
    expect(indexOf('staging', /cdk deploy/)).toBeLessThan(indexOf('staging', /npm run smoke -- --stage staging/));
    const loud = jobs.staging?.steps.at(-1);
    expect(loud?.if).toBe('failure()');
    expect(loud?.run).toContain('::error title=Staging failed, prod stopped::');
  });
});
