/**
 * bin/app.ts refuses a `-c` key it does not know, so a typo cannot deploy a stage without the setting
 * the operator meant. Run as the CDK CLI runs it: the context (cdk.json's and the `-c` ones) in CDK_CONTEXT_JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STAGE_CONTEXT_KEYS } from '#lib/stage-config';
import { PROJECT_ROOT } from './support/project-root';

const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

let outdir: string;
beforeEach(() => {
  outdir = mkdtempSync(join(tmpdir(), 'petstore-context-'));
});
afterEach(() => rmSync(outdir, { recursive: true, force: true }));

const synthApp = (context: Record<string, unknown>) =>
  promisify(execFile)(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['bin/app.ts'], {
    cwd: PROJECT_ROOT,
    // What the CLI adds besides `-c`: its own settings, all `aws:cdk:…`; no bundling, which this does not look at.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: outdir,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({
        ...CDK_JSON_CONTEXT,
        'aws:cdk:enable-path-metadata': true,
        'aws:cdk:bundling-stacks': [],
        ...context,
      }),
    },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (error: unknown) => error as { code: number; stderr: string },
  );

it('`-c corsOrigin=…` (for corsOrigins) fails the synth, suggesting the key and listing every known one', async () => {
  const failed = await synthApp({ stage: 'dev', corsOrigin: 'https://app.example.com' });
  expect(failed.code).toBe(1);
  expect(failed.stderr.trim()).toBe(
    `unknown context key corsOrigin (did you mean corsOrigins?); the stage's keys are: stage, ${STAGE_CONTEXT_KEYS.join(', ')}`,
  );
});

it("cdk.json's context, the CLI's own keys and the stage's keys synthesize", async () => {
  await expect(synthApp({ stage: 'dev', corsOrigins: 'https://app.example.com', alarmEmail: 'ops@example.com' })).resolves.toEqual({
    code: 0,
    stderr: '',
  });
}, 60_000);
