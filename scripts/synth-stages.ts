/**
 * `npm run synth:stages` (run by .ci/run): `cdk synth` of every stage as `cdk deploy` builds it (real bundling, cdk-nag),
 * under compliance=control-tower, prod with every optional context from outside us-east-1, and staging as committed. Fails on any esbuild warning (NodejsFunction only
 * prints them) and, through `--strict`, any CDK warning. Staging's assembly stays in cdk.out for `npm run rehearse`
 * (CI's rehearsal test serves it, through PETSTORE_REHEARSAL_ASSEMBLY).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkTemplates, unexcused } from './template-checks';

const ROOT = resolve(import.meta.dirname, '..');
const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');

/**
 * `region`: AWS_REGION for the CDK CLI (unset: us-east-1); `keep`: left in cdk.out instead of a removed folder;
 * `account`: CDK_DEFAULT_ACCOUNT, as a deploy has it (a control-tower synthesis writes it into its permissions).
 */
interface Synthesis {
  readonly name: string;
  readonly context: Readonly<Record<string, string>>;
  readonly region?: string;
  readonly keep?: true;
  readonly account?: string;
}

const PROD = { stage: 'prod', alarmEmail: 'ops@example.com', sesFromEmail: 'no-reply@example.com' };
const EVERY_OPTION = {
  sesVerifiedDomain: 'example.com',
  corsOrigins: 'https://app.example.com',
  petsDomain: 'api.example.com',
  messagesDomain: 'messages.example.com',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'example.com',
};

const CONTROL_TOWER = { compliance: 'control-tower' };
const EXAMPLE_ACCOUNT = '123456789012';

// Every stage under control-tower (docs/compliance.md: cfn-guard with the Control Tower rules runs on those), and
// staging as committed (kept for the rehearsal); prod's committed options are all in its every-option synthesis, and
// the template tests hold dev and prod as committed (cdk-nag included).
const SYNTHESES: readonly Synthesis[] = [
  { name: 'dev, control-tower', context: { stage: 'dev', ...CONTROL_TOWER }, account: EXAMPLE_ACCOUNT },
  { name: 'staging', context: { stage: 'staging' }, keep: true },
  { name: 'staging, control-tower', context: { stage: 'staging', ...CONTROL_TOWER }, account: EXAMPLE_ACCOUNT },
  {
    name: 'prod, every option, control-tower, from eu-west-1',
    context: { ...PROD, ...EVERY_OPTION, ...CONTROL_TOWER },
    region: 'eu-west-1',
    account: EXAMPLE_ACCOUNT,
  },
];

/** esbuild's mark on a warning (`▲ [WARNING] …`, the triangle only on a terminal). */
const ESBUILD_WARNING = /\[WARNING\]/;

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(CDK, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** Whether one synthesis came out clean; says so, or why not with the CLI's output. */
async function synthesize(synthesis: Synthesis): Promise<boolean> {
  const outdir = synthesis.keep ? join(ROOT, 'cdk.out') : mkdtempSync(join(tmpdir(), 'petstore-synth-'));
  const started = performance.now();
  const context = Object.entries(synthesis.context).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const args = ['synth', '--quiet', '--strict', '--output', outdir, ...context];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(synthesis.region ? { AWS_REGION: synthesis.region } : {}),
    ...(synthesis.account ? { CDK_DEFAULT_ACCOUNT: synthesis.account } : {}),
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
    const controlTower = synthesis.context.compliance === 'control-tower';
    const { findings, templates } = await checkTemplates(outdir, controlTower);
    const left = unexcused(findings);
    const tools = controlTower ? 'cfn-lint and cfn-guard (Control Tower rules)' : 'cfn-lint';
    if (left.length > 0) {
      console.error(`FAIL ${synthesis.name}: ${tools} found what docs/compliance.md does not excuse:\n  ${left.join('\n  ')}`);
      return false;
    }
    console.log(
      `ok   ${synthesis.name}: ${bundles} functions bundled, cdk-nag clean, no warning, ${tools} clean on ${templates} templates but the ${findings.length} findings docs/compliance.md excuses (${seconds} s)`,
    );
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
