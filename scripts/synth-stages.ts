/**
 * `npm run synth:stages` (run by .ci/run): `cdk synth` of every stage exactly as `cdk deploy` builds
 * it, with real bundling (NodejsFunction running the project's esbuild, no Docker) and the cdk-nag
 * checks, plus one prod synthesis with every optional context (CORS, custom domains in a hosted zone,
 * the front door from outside us-east-1, hence the edge stack too). Fails on any esbuild warning
 * (NodejsFunction's esbuild only prints them and carries on; esbuild has no flag that makes every
 * warning an error) and, through `--strict`, on any CDK warning. Staging's assembly is left in cdk.out, where
 * `npm run rehearse -- --stage staging` serves it (CI's rehearsal test does, through PETSTORE_REHEARSAL_ASSEMBLY).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');

interface Synthesis {
  readonly name: string;
  readonly context: Readonly<Record<string, string>>;
  /** What the CDK CLI would find in AWS_REGION; unset, it deploys (and synthesizes) for us-east-1. */
  readonly region?: string;
  /** Kept in cdk.out (as `npm run synth` leaves it) instead of a folder removed afterwards. */
  readonly keep?: true;
}

const EVERY_OPTION = {
  corsOrigins: 'https://app.example.com',
  petsDomain: 'api.example.com',
  messagesDomain: 'messages.example.com',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'example.com',
};

const SYNTHESES: readonly Synthesis[] = [
  { name: 'dev', context: { stage: 'dev' } },
  { name: 'staging', context: { stage: 'staging' }, keep: true },
  { name: 'prod', context: { stage: 'prod', alarmEmail: 'ops@example.com', sesFromEmail: 'no-reply@example.com' } },
  {
    name: 'prod, every option, from eu-west-1',
    context: {
      stage: 'prod',
      alarmEmail: 'ops@example.com',
      sesFromEmail: 'no-reply@example.com',
      sesVerifiedDomain: 'example.com',
      ...EVERY_OPTION,
    },
    region: 'eu-west-1',
  },
];

/** esbuild's mark on a warning (`▲ [WARNING] …`, the triangle only on a terminal). */
const ESBUILD_WARNING = /\[WARNING\]/;

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(CDK, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** Whether one synthesis came out clean; says so, or why not with the CLI's output. */
async function synthesize(synthesis: Synthesis): Promise<boolean> {
  const outdir = synthesis.keep ? join(ROOT, 'cdk.out') : mkdtempSync(join(tmpdir(), 'petstore-synth-'));
  const started = performance.now();
  const args = [
    'synth',
    '--quiet',
    '--strict',
    '--output',
    outdir,
    ...Object.entries(synthesis.context).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(synthesis.region ? { AWS_REGION: synthesis.region } : {}),
    // No AWS account needed: the CLI must not wait on the instance metadata service for credentials.
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  try {
    const { code, output } = await run(args, env);
    const warned = ESBUILD_WARNING.test(output);
    const bundles = output.match(/Bundling asset /g)?.length ?? 0;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (code !== 0 || warned || bundles === 0) {
      const why = code !== 0 ? `cdk synth exited with ${code}` : warned ? 'esbuild warned' : 'nothing was bundled';
      console.error(`FAIL ${synthesis.name}: ${why} (${seconds} s)\n${output}`);
      return false;
    }
    console.log(`ok   ${synthesis.name}: ${bundles} functions bundled, cdk-nag clean, no warning (${seconds} s)`);
    return true;
  } finally {
    if (!synthesis.keep) rmSync(outdir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  // Two at a time: a synthesis is mostly one Node process's work (the CLI and the app), esbuild's share is short.
  const queue = [...SYNTHESES];
  let failed = 0;
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) if (!(await synthesize(next))) failed++;
  };
  await Promise.all([worker(), worker()]);
  console.log(`synth:stages: ${SYNTHESES.length - failed} of ${SYNTHESES.length} syntheses clean`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
