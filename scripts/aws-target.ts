/** Where a deployed stage is for the operator commands, found as `cdk deploy` found it, and what to do without credentials. */
import { CloudFormationClient, DescribeStacksCommand, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { loadSharedConfigFiles } from '@smithy/core/config';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { NodeHttpHandler } from '@smithy/node-http-handler';
import { isStageName, stackNameOf, STAGES, type StageName } from '#shared/stages';
import { operatorRequestHandler, withCallDeadline } from './aws-call-deadline';

/** What every operator command says of a missing or unknown `--stage`. */
export const STAGE_REQUIRED = `--stage must be one of ${STAGES.join(', ')}`;

/** `--region` and `--profile` for parseArgs, and their usage lines: every operator command takes both. */
export const TARGET_ARGS = { region: { type: 'string' }, profile: { type: 'string' } } as const;
export const TARGET_USAGE = `  --region <region>           the stack's region (default: found as the CDK CLI finds it: AWS_REGION,
                              AWS_DEFAULT_REGION, the profile's region in ~/.aws/config, else us-east-1)
  --profile <name>            the AWS profile (default: AWS_PROFILE, else "default")`;

const STAGE_ARGS = { stage: { type: 'string' }, ...TARGET_ARGS, help: { type: 'boolean', default: false } } as const;
type StageArgs<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T & typeof STAGE_ARGS }>
>['values'];

/** A `--stage` command's options parsed; a number is the exit code where it ends: 0 after --help, 2 without a known stage. */
export function parseStageArgs<T extends ParseArgsOptionsConfig>(
  argv: string[],
  options: T,
  usage: string,
  out: (text: string) => void = console.log,
  err: (text: string) => void = console.error,
): { values: StageArgs<T>; stage: StageName } | number {
  const { values } = parseArgs({ args: argv, options: { ...options, ...STAGE_ARGS } });
  const { help, stage } = values as { help?: boolean; stage?: string };
  if (help) {
    out(usage);
    return 0;
  }
  if (!isStageName(stage)) {
    err(`${STAGE_REQUIRED}\n\n${usage}`);
    return 2;
  }
  return { values, stage };
}

/** The CDK CLI's last resort (as the AWS CLI's), when nothing names a region. */
const CDK_FALLBACK_REGION = 'us-east-1';

/** The environment variables the CDK CLI reads for the region, in its order. */
const REGION_VARIABLES = ['AWS_REGION', 'AMAZON_REGION', 'AWS_DEFAULT_REGION', 'AMAZON_DEFAULT_REGION'] as const;

/** `--region` (wins over everything) and `--profile`. */
export type AwsTargetOptions = { readonly region?: string | undefined; readonly profile?: string | undefined };

export interface AwsTarget {
  readonly region: string;
  /** Where the region came from (`AWS_REGION`, `profile "ops" in ~/.aws/config`, …). */
  readonly regionSource: string;
  /** Set when `--profile`, AWS_PROFILE or AWS_DEFAULT_PROFILE chose one. */
  readonly profile?: string;
}

type ParsedIniData = Awaited<ReturnType<typeof loadSharedConfigFiles>>['configFile'];

/** The shared files where the SDK and the CDK CLI read them; unreadable ones are empty. */
async function sharedFiles(env: NodeJS.ProcessEnv) {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const credentialsPath = env.AWS_SHARED_CREDENTIALS_FILE ?? join(home, '.aws', 'credentials');
  const configPath = env.AWS_CONFIG_FILE ?? join(home, '.aws', 'config');
  const empty: ParsedIniData = {};
  const files = await loadSharedConfigFiles({ filepath: credentialsPath, configFilepath: configPath, ignoreCache: true }).catch(() => ({
    configFile: empty,
    credentialsFile: empty,
  }));
  return { credentialsPath, configPath, ...files };
}

/**
 * The region and profile as the CDK CLI picks them (aws-cdk's AwsCliCompatible.region): `--region`, the
 * REGION_VARIABLES, the profile's `region` in the credentials then the config file, the default profile's, then
 * us-east-1. Unlike the CDK CLI it never asks the EC2 instance metadata service. `env` is for tests.
 */
export async function resolveAwsTarget(options: AwsTargetOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<AwsTarget> {
  const chosenProfile = options.profile ?? env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE;
  const profile = chosenProfile ?? 'default';
  const withProfile = (region: string, regionSource: string): AwsTarget => ({
    region,
    regionSource,
    ...(chosenProfile ? { profile: chosenProfile } : {}),
  });
  if (options.region) return withProfile(options.region, '--region');
  const variable = REGION_VARIABLES.find((name) => env[name]);
  if (variable) return withProfile(env[variable] as string, variable);
  const files = await sharedFiles(env);
  for (const name of [profile, 'default'])
    for (const [data, path] of [
      [files.credentialsFile, files.credentialsPath],
      [files.configFile, files.configPath],
    ] as const) {
      const region = data[name]?.region;
      if (region) return withProfile(region, `profile "${name}" in ${path}`);
    }
  return withProfile(
    CDK_FALLBACK_REGION,
    `no region configured (--region, AWS_REGION, AWS_DEFAULT_REGION, or \`region\` of profile "${profile}" in ${files.configPath}); ${CDK_FALLBACK_REGION} is what the CDK CLI then deploys to`,
  );
}

/** One line naming the stack and where it was looked for. */
const describeTarget = (stackName: string, target: AwsTarget): string =>
  `Stack ${stackName} in ${target.region} (region: ${target.regionSource}${target.profile ? `; profile: ${target.profile}` : ''})`;

/** SDK client settings for the target: its region, its profile when one was chosen, and timeouts (scripts/aws-call-deadline.ts). */
export const clientConfigOf = (target: AwsTarget): { region: string; profile?: string; requestHandler: NodeHttpHandler } => ({
  region: target.region,
  ...(target.profile ? { profile: target.profile } : {}),
  requestHandler: operatorRequestHandler(),
});

/** A call to CloudFormation about the stage's stack; a clear error when the stack is not in the target's region. */
async function aboutStack<T>(
  stage: StageName,
  target: AwsTarget,
  call: (client: CloudFormationClient, stackName: string) => Promise<T>,
  settings: Readonly<Record<string, unknown>> = {},
): Promise<T> {
  const stackName = stackNameOf(stage);
  const cloudFormation = withCallDeadline(new CloudFormationClient({ ...clientConfigOf(target), ...settings }), target.region);
  try {
    return await call(cloudFormation, stackName);
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message)) {
      throw new Error(
        `${describeTarget(stackName, target)} does not exist: deploy it first, or pass the region it was deployed to (--region)`,
      );
    }
    throw error;
  } finally {
    cloudFormation.destroy();
  }
}

/** The stage's stack outputs by key. */
export const stackOutputs = (stage: StageName, target: AwsTarget): Promise<Record<string, string>> =>
  aboutStack(stage, target, async (cloudFormation, stackName) => {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries(
      (Stacks?.[0]?.Outputs ?? []).flatMap(({ OutputKey, OutputValue }) => (OutputKey ? [[OutputKey, OutputValue ?? '']] : [])),
    );
  });

/** One of the outputs; an error when the deployed stack has none of that name. */
export function outputOf(outputs: Readonly<Record<string, string>>, key: string): string {
  const value = outputs[key];
  if (!value) throw new Error(`the stack has no ${key} output; deploy it first`);
  return value;
}

export interface StackResource {
  readonly logicalId: string;
  readonly physicalId: string;
  readonly type: string;
}

/** Every resource of the stage's stack (ListStackResources: DescribeStackResources stops at 100); `settings` for tests. */
export const stackResources = (
  stage: StageName,
  target: AwsTarget,
  settings: Readonly<Record<string, unknown>> = {},
): Promise<StackResource[]> =>
  aboutStack(
    stage,
    target,
    async (cloudFormation, stackName) => {
      const resources: StackResource[] = [];
      for await (const page of paginateListStackResources({ client: cloudFormation }, { StackName: stackName })) {
        for (const { LogicalResourceId, PhysicalResourceId, ResourceType } of page.StackResourceSummaries ?? []) {
          if (LogicalResourceId && PhysicalResourceId && ResourceType) {
            resources.push({ logicalId: LogicalResourceId, physicalId: PhysicalResourceId, type: ResourceType });
          }
        }
      }
      return resources;
    },
    settings,
  );

/** Failures of the credential chain or of the credentials; the SDK names the first only by what it tried. */
const CREDENTIAL_ERRORS = new Set([
  'CredentialsProviderError',
  'TokenProviderError',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
]);

const isCredentialError = (error: unknown): error is Error =>
  error instanceof Error &&
  (CREDENTIAL_ERRORS.has(error.name) || /could not load credentials|sso session|sso credentials/i.test(error.message));

/** What the operator reads when a command fails: the error's message or, for credentials, what to do. `env` is for tests. */
export async function explainFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (!isCredentialError(error)) return error instanceof Error ? error.message : String(error);
  const { credentialsPath, configPath, configFile, credentialsFile } = await sharedFiles(env);
  // The parser keeps `[sso-session x]` and `[services x]` sections as `sso-session.x`: not profiles.
  const profilesOf = (data: ParsedIniData) => Object.keys(data).filter((name) => !/^(sso-session|services)\./.test(name));
  const inConfig = profilesOf(configFile);
  const inCredentials = profilesOf(credentialsFile);
  const named = env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE;
  const profile = named ?? 'default';
  const known = inConfig.includes(profile) || inCredentials.includes(profile);
  const settings = configFile[profile] ?? {};
  const viaSso = settings.sso_session !== undefined || settings.sso_start_url !== undefined;

  const lines = [`No usable AWS credentials (the SDK said: ${error.message.split('\n')[0]}).`];
  if (named !== undefined && !known) lines.push(`The profile "${profile}" is in neither ${configPath} nor ${credentialsPath}.`);
  else if (known) lines.push(`The profile in use is "${profile}"${named === undefined ? ' (no AWS_PROFILE, no --profile)' : ''}.`);
  const found = [
    inConfig.length > 0 ? `${inConfig.join(', ')} (${configPath})` : undefined,
    inCredentials.length > 0 ? `${inCredentials.join(', ')} (${credentialsPath})` : undefined,
  ].filter((part): part is string => part !== undefined);
  lines.push(found.length > 0 ? `Profiles found: ${found.join('; ')}.` : `No profiles in ${configPath} or ${credentialsPath}.`);
  // The project needs no AWS CLI: every first fix is a variable or a file; the CLI's commands come after, as an option.
  const fixes: [string, string][] = [
    ...(found.length > 0 ? [['--profile <name>, or AWS_PROFILE=<name>', 'use one of the profiles found'] as [string, string]] : []),
    [
      'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY',
      'keys in the environment (and AWS_SESSION_TOKEN for temporary ones, such as the access keys the IAM Identity Center portal shows)',
    ],
    [`a [${profile}] profile`, `in ${credentialsPath}: aws_access_key_id = … and aws_secret_access_key = … lines`],
  ];
  const withCli: [string, string][] = [
    ...(known && viaSso
      ? [[`aws sso login --profile ${profile}`, 'its IAM Identity Center session has expired or never started'] as [string, string]]
      : []),
    ['aws configure sso', 'set up a profile for IAM Identity Center, then `aws sso login --profile <name>`'],
  ];
  const width = Math.max(...[...fixes, ...withCli].map(([fix]) => fix.length));
  const rows = (list: [string, string][]) => list.map(([fix, why]) => `  ${fix.padEnd(width)}  ${why}`);
  lines.push('Fix it with one of (no AWS CLI needed):', ...rows(fixes), 'Or, with the AWS CLI (optional):', ...rows(withCli));
  return lines.join('\n');
}

/**
 * The stage's target, said (on stderr by default: stdout is the command's) before any AWS call so a failure says
 * where it looked. `--profile` becomes AWS_PROFILE, which the SDK's credential chain reads, as the AWS and CDK CLIs do.
 */
export async function stageTarget(
  stage: StageName,
  options: AwsTargetOptions,
  say: (line: string) => void = (line) => console.error(line),
): Promise<AwsTarget> {
  if (options.profile) process.env.AWS_PROFILE = options.profile;
  const target = await resolveAwsTarget(options);
  say(describeTarget(stackNameOf(stage), target));
  return target;
}

/** Runs an operator command to its exit code; a failure ends it with its explanation, not a stack trace. */
export function runOperatorCommand(run: (argv: string[]) => Promise<number>): void {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    async (error: unknown) => {
      console.error(await explainFailure(error));
      process.exit(1);
    },
  );
}
