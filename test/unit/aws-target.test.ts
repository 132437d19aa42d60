/**
 * The operator commands find a deployed stage in the region `cdk deploy` used: the CDK CLI's order
 * (scripts/aws-target.ts), checked offline against a temporary HOME with its own ~/.aws files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { explainFailure, resolveAwsTarget } from '../../scripts/aws-target';

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

describe('a credential failure says how to fix it', () => {
  const sdkFailure = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
  const config = () => join(home, '.aws', 'config');
  const credentials = () => join(home, '.aws', 'credentials');

  it('an unknown profile: says so, lists the profiles of both files, and names --profile, AWS_PROFILE and `aws configure sso`', async () => {
    writeAws('config', CONFIG + '\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n');
    writeAws('credentials', '[ci]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\n');
    const message = await explainFailure(sdkFailure, { HOME: home, AWS_PROFILE: 'nosuch' });
    expect(message).toContain('the SDK said: Could not load credentials from any providers');
    expect(message).toContain(`The profile "nosuch" is in neither ${config()} nor ${credentials()}.`);
    expect(message).toContain(`Profiles found: default, ops, bare (${config()}); ci (${credentials()}).`);
    expect(message).toMatch(/^ {2}--profile <name>, or AWS_PROFILE=<name> +use one of the profiles found$/m);
    expect(message).toMatch(/aws configure sso/);
    expect(message).not.toMatch(/aws sso login --profile nosuch/);
  });

  it('an IAM Identity Center profile: `aws sso login --profile <it>`', async () => {
    writeAws(
      'config',
      '[profile ops]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = Admin\n\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1\n',
    );
    const message = await explainFailure(sdkFailure, { HOME: home, AWS_PROFILE: 'ops' });
    expect(message).toContain('The profile in use is "ops".');
    expect(message).toMatch(/^ {2}aws sso login --profile ops /m);
  });

  it('no AWS files at all: `aws configure sso` or keys in the environment', async () => {
    const message = await explainFailure(sdkFailure, { HOME: home });
    expect(message).toContain(`No profiles in ${config()} or ${credentials()}.`);
    expect(message).toMatch(/aws configure sso/);
    expect(message).toMatch(/AWS_ACCESS_KEY_ID/);
    expect(message).not.toMatch(/^ {2}--profile <name>/m);
  });

  it.each([
    ['no AWS files', undefined],
    ['an IAM Identity Center profile', 'ops'],
  ])(
    '%s: the fixes need no AWS CLI (variables, the credentials file); its commands come after, said to be optional',
    async (_label, profile) => {
      if (profile)
        writeAws(
          'config',
          `[profile ${profile}]\nsso_session = corp\n\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n`,
        );
      const message = await explainFailure(sdkFailure, { HOME: home, ...(profile ? { AWS_PROFILE: profile } : {}) });
      const [fixes = '', withCli = ''] = message.split('Or, with the AWS CLI (optional):\n');
      expect(fixes).toContain('Fix it with one of (no AWS CLI needed):');
      expect(fixes).not.toMatch(/^ +aws /m);
      expect(fixes).toMatch(/^ {2}AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY /m);
      expect(fixes).toContain(`in ${credentials()}: aws_access_key_id = … and aws_secret_access_key = … lines`);
      expect(withCli).toMatch(/^ {2}aws configure sso /m);
    },
  );

  it('any other failure keeps its own message', async () => {
    await expect(explainFailure(new Error('Stack PetStore-dev in eu-west-1 … does not exist'), { HOME: home })).resolves.toBe(
      'Stack PetStore-dev in eu-west-1 … does not exist',
    );
  });
});

it('without credentials, every operator command names the stack and region, then the fix instead of the bare SDK line', async () => {
  writeAws('config', '[profile ops]\nregion = eu-central-1\n');
  const env = { PATH: process.env.PATH ?? '', HOME: home, AWS_EC2_METADATA_DISABLED: 'true' };
  const command = (script: string, args: string[]) =>
    run(join(ROOT, 'node_modules/.bin/tsx'), [script, ...args], { cwd: ROOT, env }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
  const failures = await Promise.all([
    command('scripts/outputs.ts', ['--stage', 'staging', '--profile', 'nosuch']),
    command('scripts/keys.ts', ['list', '--stage', 'staging', '--profile', 'nosuch']),
    command('scripts/smoke.ts', ['--stage', 'staging', '--profile', 'nosuch']),
    command('scripts/logs.ts', ['--stage', 'staging', '--profile', 'nosuch']),
  ]);
  for (const failure of failures) {
    expect(failure?.code).toBe(1);
    const output = `${failure?.stdout ?? ''}${failure?.stderr ?? ''}`;
    expect(output).toContain('Stack PetStore-staging in us-east-1 (region: no region configured');
    expect(output).toContain(`The profile "nosuch" is in neither ${join(home, '.aws', 'config')}`);
    expect(output).toContain(`Profiles found: ops (${join(home, '.aws', 'config')}).`);
    expect(output).toMatch(/aws configure sso/);
  }
}, 60_000);
