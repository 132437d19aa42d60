/**
 * `npm run rehearse`: the staging stage as `cdk synth` builds it (real bundling, into a folder of this test, or
 * in CI the assembly `npm run synth:stages` left in PETSTORE_REHEARSAL_ASSEMBLY) passes
 * the smoke suite on this machine, and its stage check's pre-traffic hook passes with nothing set by hand, and a template that no longer gives a function its table fails it, naming the
 * variable. Both runs are the CLI as CI runs it; their ceilings only turn a hang into a failure.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { constructIdOf } from '#lib/construct-ids';
import { stackNameOf } from '#shared/stages';
import { TABLES } from '#shared/tables';
import { PROJECT_ROOT } from '../support/local-process';

const run = promisify(execFile);
const CEILING_MS = 600_000;
const STAGE = 'staging';

interface Ran {
  readonly code: number;
  readonly output: string;
}

async function ran(file: string, args: readonly string[]): Promise<Ran> {
  const options = { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' } };
  try {
    const { stdout, stderr } = await run(file, args, options);
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const rehearse = (assembly: string): Promise<Ran> =>
  ran(process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', '--rehearse', '--stage', STAGE, '--assembly', assembly]);

let folder: string;
let assembly: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-rehearsal-test-'));
  // .ci/run names the staging assembly its `npm run synth:stages` just built, the same synthesis as below.
  const built = process.env.PETSTORE_REHEARSAL_ASSEMBLY;
  if (built) {
    assembly = resolve(PROJECT_ROOT, built);
    return;
  }
  assembly = join(folder, 'cdk.out');
  const synth = await ran(join(PROJECT_ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', '-c', `stage=${STAGE}`, '--output', assembly]);
  expect(synth).toMatchObject({ code: 0 });
}, CEILING_MS);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

test(
  'the synthesized staging bundles, tables and routes pass the smoke suite',
  async () => {
    const { code, output } = await rehearse(assembly);
    expect(output).toMatch(/^Smoke: \d+ passed, 0 failed/m);
    // Its sandboxes ended in place of the authorizer's cache window: a fresh instance refuses the revoked key.
    expect(output).toMatch(/^PASS {2}the revoked temporary key answers 401/m);
    // A fresh stage (its check's secret as the stack leaves it): the hook from its bundle mints its key and passes.
    expect(output).toMatch(
      /^PASS {2}a fresh stage's pre-traffic hook passes, its check minting its own key — verdict Succeeded; a key in its secret$/m,
    );
    expect(code).toBe(0);
  },
  CEILING_MS,
);

test(
  "a template whose getPet function lacks its table's variable fails the rehearsal, naming the variable",
  async () => {
    const broken = join(folder, 'broken');
    cpSync(assembly, broken, { recursive: true });
    const templateFile = join(broken, `${stackNameOf(STAGE)}.template.json`);
    const template = JSON.parse(readFileSync(templateFile, 'utf8')) as {
      Resources: Record<string, { Type: string; Properties: { Environment?: { Variables: Record<string, unknown> } } }>;
    };
    const [, getPet] =
      Object.entries(template.Resources).find(
        ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith(`${constructIdOf('getPet')}Function`),
      ) ?? [];
    const variables = getPet?.Properties.Environment?.Variables ?? {};
    expect(variables).toHaveProperty(TABLES.pets.envVar);
    Reflect.deleteProperty(variables, TABLES.pets.envVar);
    writeFileSync(templateFile, JSON.stringify(template));

    const { code, output } = await rehearse(broken);
    expect(output).toContain(`${TABLES.pets.envVar} is not set`);
    expect(output).toMatch(/^FAIL {2}GET \/pets\/\{petId\}/m);
    expect(code).toBe(1);
  },
  CEILING_MS,
);
