/**
 * Where a deployed stage is, found the way `cdk deploy` found it, for the operator commands
 * (`npm run keys -- --stage`, `npm run outputs`): the region exactly as the CDK CLI resolves it, and
 * the stack's outputs read from CloudFormation there.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { loadSharedConfigFiles } from '@smithy/core/config';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { stackNameOf, type StageName } from '#shared/stages';

/** `--region` and `--profile` for parseArgs, and their usage lines: every operator command takes both. */
export const TARGET_ARGS = { region: { type: 'string' }, profile: { type: 'string' } } as const;
export const TARGET_USAGE = `  --region <region>           the stack's region (default: found as the CDK CLI finds it: AWS_REGION,
                              AWS_DEFAULT_REGION, the profile's region in ~/.aws/config, else us-east-1)
  --profile <name>            the AWS profile (default: AWS_PROFILE, else "default")`;

/** The CDK CLI's last resort (as the AWS CLI's), when nothing names a region. */
export const CDK_FALLBACK_REGION = 'us-east-1';

/** The environment variables the CDK CLI reads for the region, in its order. */
const REGION_VARIABLES = ['AWS_REGION', 'AMAZON_REGION', 'AWS_DEFAULT_REGION', 'AMAZON_DEFAULT_REGION'] as const;

export interface AwsTargetOptions {
  /** `--region`: wins over everything. */
  readonly region?: string | undefined;
  /** `--profile`: the shared-config profile for the region and the credentials. */
  readonly profile?: string | undefined;
}

export interface AwsTarget {
  readonly region: string;
  /** Where the region came from, for the operator to check (`AWS_REGION`, `profile "ops" in ~/.aws/config`, …). */
  readonly regionSource: string;
  /** Set when a profile was chosen by `--profile`, AWS_PROFILE or AWS_DEFAULT_PROFILE. */
  readonly profile?: string;
}

type ParsedIniData = Awaited<ReturnType<typeof loadSharedConfigFiles>>['configFile'];

const regionOf = (files: ParsedIniData, profile: string): string | undefined => {
  const region = files[profile]?.region;
  return region === undefined || region === '' ? undefined : region;
};

/**
 * The region and profile as the CDK CLI picks them (aws-cdk's AwsCliCompatible.region): `--region`,
 * then AWS_REGION, AMAZON_REGION, AWS_DEFAULT_REGION, AMAZON_DEFAULT_REGION, then the profile's
 * `region` in the shared credentials file and then in the config file, then the default profile's,
 * then us-east-1. The CDK CLI asks the EC2 instance metadata service before falling back; this does
 * not (on an EC2 instance without a configured region, pass `--region`). `env` is for tests.
 */
export async function resolveAwsTarget(options: AwsTargetOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<AwsTarget> {
  const chosenProfile = options.profile ?? env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE;
  const profile = chosenProfile ?? 'default';
  const withProfile = <T extends object>(target: T) => ({ ...target, ...(chosenProfile ? { profile: chosenProfile } : {}) });
  if (options.region) return withProfile({ region: options.region, regionSource: '--region' });
  for (const variable of REGION_VARIABLES) {
    const region = env[variable];
    if (region) return withProfile({ region, regionSource: variable });
  }
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const credentialsPath = env.AWS_SHARED_CREDENTIALS_FILE ?? join(home, '.aws', 'credentials');
  const configPath = env.AWS_CONFIG_FILE ?? join(home, '.aws', 'config');
  const files = await loadSharedConfigFiles({ filepath: credentialsPath, configFilepath: configPath, ignoreCache: true });
  const candidates: [string, ParsedIniData, string][] = [
    [profile, files.credentialsFile, credentialsPath],
    [profile, files.configFile, configPath],
    ['default', files.credentialsFile, credentialsPath],
    ['default', files.configFile, configPath],
  ];
  for (const [name, data, path] of candidates) {
    const region = regionOf(data, name);
    if (region) return withProfile({ region, regionSource: `profile "${name}" in ${path}` });
  }
  return withProfile({
    region: CDK_FALLBACK_REGION,
    regionSource: `no region configured (--region, AWS_REGION, AWS_DEFAULT_REGION, or \`region\` of profile "${profile}" in ${configPath}); ${CDK_FALLBACK_REGION} is what the CDK CLI then deploys to`,
  });
}

/** One line naming the stack and where it was looked for. */
export const describeTarget = (stackName: string, target: AwsTarget): string =>
  `Stack ${stackName} in ${target.region} (region: ${target.regionSource}${target.profile ? `; profile: ${target.profile}` : ''})`;

/** SDK client settings for the target: its region, and its profile when one was chosen. */
export const clientConfigOf = (target: AwsTarget): { region: string; profile?: string } => ({
  region: target.region,
  ...(target.profile ? { profile: target.profile } : {}),
});

/** The stage's stack outputs by key; a clear error when the stack is not in the target's region. */
export async function stackOutputs(stage: StageName, target: AwsTarget): Promise<Record<string, string>> {
  const stackName = stackNameOf(stage);
  const cloudFormation = new CloudFormationClient(clientConfigOf(target));
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries(
      (Stacks?.[0]?.Outputs ?? []).flatMap(({ OutputKey, OutputValue }) => (OutputKey ? [[OutputKey, OutputValue ?? '']] : [])),
    );
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
