/**
 * The operator commands find a deployed stage in the region `cdk deploy` used: the CDK CLI's order
 * (scripts/aws-target.ts), checked offline against a temporary HOME with its own ~/.aws files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { resolveAwsTarget } from '../../scripts/aws-target';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'petstore-aws-home-'));
  mkdirSync(join(home, '.aws'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const writeAws = (file: 'config' | 'credentials', text: string) => writeFileSync(join(home, '.aws', file), text);
const CONFIG = '[default]\nregion = eu-west-1\n\n[profile ops]\nregion = ap-southeast-2\n\n[profile bare]\noutput = json\n';

describe('the region, found as the CDK CLI finds it', () => {
  it('--region wins over every variable and file', async () => {
    writeAws('config', CONFIG);
    await expect(resolveAwsTarget({ region: 'sa-east-1' }, { HOME: home, AWS_REGION: 'eu-north-1' })).resolves.toEqual({
      region: 'sa-east-1',
      regionSource: '--region',
    });
  });

  it('AWS_REGION comes before AWS_DEFAULT_REGION, and both before the config file', async () => {
    writeAws('config', CONFIG);
    await expect(resolveAwsTarget({}, { HOME: home, AWS_REGION: 'eu-north-1', AWS_DEFAULT_REGION: 'us-west-2' })).resolves.toMatchObject({
      region: 'eu-north-1',
      regionSource: 'AWS_REGION',
    });
    await expect(resolveAwsTarget({}, { HOME: home, AWS_DEFAULT_REGION: 'us-west-2' })).resolves.toMatchObject({
      region: 'us-west-2',
      regionSource: 'AWS_DEFAULT_REGION',
    });
  });

  it('without variables, the default profile\'s region in ~/.aws/config (where `npm run keys` used to stop with "Region is missing")', async () => {
    writeAws('config', CONFIG);
    await expect(resolveAwsTarget({}, { HOME: home })).resolves.toEqual({
      region: 'eu-west-1',
      regionSource: `profile "default" in ${join(home, '.aws', 'config')}`,
    });
  });

  it("AWS_PROFILE or --profile picks that profile's region, and is reported for the credentials too", async () => {
    writeAws('config', CONFIG);
    await expect(resolveAwsTarget({}, { HOME: home, AWS_PROFILE: 'ops' })).resolves.toEqual({
      region: 'ap-southeast-2',
      regionSource: `profile "ops" in ${join(home, '.aws', 'config')}`,
      profile: 'ops',
    });
    await expect(resolveAwsTarget({ profile: 'ops' }, { HOME: home, AWS_PROFILE: 'bare' })).resolves.toMatchObject({
      region: 'ap-southeast-2',
      profile: 'ops',
    });
  });

  it("a profile without a region falls back to the default profile's, as the CDK CLI does", async () => {
    writeAws('config', CONFIG);
    await expect(resolveAwsTarget({ profile: 'bare' }, { HOME: home })).resolves.toMatchObject({ region: 'eu-west-1', profile: 'bare' });
  });

  it('the credentials file is read before the config file', async () => {
    writeAws('config', CONFIG);
    writeAws('credentials', '[ops]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\nregion = ca-central-1\n');
    await expect(resolveAwsTarget({ profile: 'ops' }, { HOME: home })).resolves.toMatchObject({ region: 'ca-central-1' });
  });

  it('AWS_CONFIG_FILE points at another config file', async () => {
    const elsewhere = join(home, 'elsewhere');
    writeFileSync(elsewhere, '[default]\nregion = me-south-1\n');
    await expect(resolveAwsTarget({}, { HOME: home, AWS_CONFIG_FILE: elsewhere })).resolves.toMatchObject({ region: 'me-south-1' });
  });

  it('with nothing configured, us-east-1 (where the CDK CLI deploys then), saying what was looked for', async () => {
    const target = await resolveAwsTarget({}, { HOME: home });
    expect(target.region).toBe('us-east-1');
    expect(target.regionSource).toMatch(
      /^no region configured \(--region, AWS_REGION, AWS_DEFAULT_REGION, or `region` of profile "default"/,
    );
  });
});

it('`npm run outputs -- --stage staging` names the stack and the region it looks in before it calls AWS', async () => {
  writeAws('config', '[profile ops]\nregion = eu-central-1\n');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    AWS_PROFILE: 'ops',
    // No credentials anywhere and no instance metadata: the call fails here, offline, after the line.
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  const failure = await run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/outputs.ts', '--stage', 'staging'], { cwd: ROOT, env }).then(
    () => undefined,
    (error: unknown) => error as { code: number; stderr: string },
  );
  expect(failure?.code).toBe(1);
  expect(failure?.stderr.split('\n')[0]).toBe(
    `Stack PetStore-staging in eu-central-1 (region: profile "ops" in ${join(home, '.aws', 'config')}; profile: ops)`,
  );
}, 30_000);
