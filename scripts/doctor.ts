/**
 * `npm run doctor -- --stage prod`: before a first deploy, checks with read-only calls that the account and Region
 * fit config/<stage>.json; after it, that the stage check's key is live. Each FAIL prints the command or edit that
 * fixes it, and exits 1.
 */
import { APIGatewayClient, GetAccountCommand as GetApiGatewayAccountCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, paginateListDistributions } from '@aws-sdk/client-cloudfront';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand as GetSesAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { hashApiKey, isWellFormedApiKey } from '#auth/api-keys';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { ALL_ROUTES, type ApiName } from '#shared/routes';
import { overridesOf, PLACEHOLDER, readStageOptions, stageFileOf, type StageOptions } from '#shared/stage-options';
import { DEFAULT_ROUTE_KEY, PREFLIGHT_ROUTE_KEY, routeKeyOf, routeThrottle, throttlingOf } from '#shared/stage-throttling';
import { stackNameOf, STAGES, type StageName } from '#shared/stages';
import { alarmSubscriptionChecks } from './doctor/alarm-subscriptions';
import { EndpointUnreachableError, operatorRequestHandler, withCallDeadline } from './aws-call-deadline';
import { clientConfigOf, parseStageArgs, runOperatorCommand, stageTarget, TARGET_USAGE, type AwsTarget } from './aws-target';

const USAGE = `Usage: npm run doctor -- --stage <${STAGES.join('|')}> [options]

Options:
  -c <option>=<value>         an option as the deploy will override it (repeatable; as \`npm run cdk -- deploy -c …\`)
${TARGET_USAGE}
  --help`;

/** Where the edge stack of a front door lives (lib/edge-config.ts). */
const EDGE_REGION = 'us-east-1';
/** The oldest CDK bootstrap the synthesized templates accept (their CheckBootstrapVersion rule). */
const MIN_BOOTSTRAP_VERSION = 6;
/** Lambda refuses a reservation that leaves fewer unreserved concurrent executions than this in the Region. */
const UNRESERVED_MINIMUM = 100;
/** CloudFront's default quota of distributions per account. */
const DEFAULT_DISTRIBUTIONS = 200;
/** What AWS grants an account by default; asked for when a new account's reduced quota is short. */
const DEFAULT_LAMBDA_CONCURRENCY = 1_000;

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

/** SDK client settings besides the target's region; tests point them at a stand-in. */
export type ClientSettings = Readonly<Record<string, unknown>>;

/** Each client its own request handler: destroying a client ends its handler's connections. */
const fresh = () => ({ requestHandler: operatorRequestHandler() });

const quotaRequest = (service: string, code: string, value: number, region: string): string =>
  `aws service-quotas request-service-quota-increase --service-code ${service} --quota-code ${code} --desired-value ${value} --region ${region}`;

async function bootstrap(region: string, account: string, settings: ClientSettings, why: string): Promise<Check> {
  const name = `CDK bootstrap of ${region}${why}`;
  const fix = `npm run cdk -- bootstrap aws://${account}/${region}`;
  const cloudFormation = withCallDeadline(new CloudFormationClient({ ...settings, ...fresh(), region }), region);
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }));
    const [stack] = Stacks ?? [];
    const version = Number(stack?.Outputs?.find((output) => output.OutputKey === 'BootstrapVersion')?.OutputValue);
    if (!stack?.StackStatus?.endsWith('_COMPLETE') || stack.StackStatus.includes('ROLLBACK') || stack.StackStatus.startsWith('DELETE'))
      return { name, ok: false, detail: `the CDKToolkit stack is ${stack?.StackStatus ?? 'unreadable'}`, fix };
    if (!(version >= MIN_BOOTSTRAP_VERSION))
      return { name, ok: false, detail: `version ${version}; the templates need ${MIN_BOOTSTRAP_VERSION} or later`, fix };
    return { name, ok: true, detail: `CDKToolkit version ${version}` };
  } catch (error) {
    if (error instanceof Error && /does not exist/.test(error.message)) return { name, ok: false, detail: 'no CDKToolkit stack', fix };
    throw error;
  } finally {
    cloudFormation.destroy();
  }
}

async function lambdaConcurrency(options: StageOptions, target: AwsTarget, settings: ClientSettings): Promise<Check> {
  const throttling = throttlingOf(options);
  // What the stack reserves, from the recipe it deploys each function with.
  const reserved = DEPLOYED_FUNCTIONS.flatMap((fn) => {
    const { reservedConcurrency } = functionRecipe(fn, { tableName: () => '', logLevel: 'INFO', reservedFor: throttling });
    return options.reservedConcurrency && reservedConcurrency ? [[fn.name, reservedConcurrency] as const] : [];
  });
  const total = reserved.reduce((sum, [, count]) => sum + count, 0);
  const lambda = withCallDeadline(new LambdaClient({ ...settings, ...fresh(), region: target.region }), target.region);
  const { AccountLimit } = await lambda.send(new GetAccountSettingsCommand({})).finally(() => lambda.destroy());
  const limit = AccountLimit?.ConcurrentExecutions ?? 0;
  const unreserved = AccountLimit?.UnreservedConcurrentExecutions ?? 0;
  const name = 'Lambda concurrency';
  const account = `the account has ${limit} concurrent executions in ${target.region}, ${unreserved} unreserved`;
  if (total === 0) return { name, ok: true, detail: `${account}; the stage reserves none` };
  const detail = `${account}; the stage reserves ${total} (${reserved.map((pair) => pair.join(' ')).join(', ')}) and Lambda keeps ${UNRESERVED_MINIMUM} unreserved`;
  if (unreserved - total >= UNRESERVED_MINIMUM) return { name, ok: true, detail };
  const wanted = Math.max(DEFAULT_LAMBDA_CONCURRENCY, limit - unreserved + total + UNRESERVED_MINIMUM);
  return {
    name,
    ok: false,
    detail: `${detail}: the deploy would fail at the first reservation`,
    fix:
      `${quotaRequest('lambda', 'L-B99A9384', wanted, target.region)}\n` +
      'or, until AWS raises it, deploy without reservations: -c reservedConcurrency=false (docs/deploy.md)',
  };
}

async function apiGatewayThrottle(options: StageOptions, target: AwsTarget, settings: ClientSettings, stage: StageName): Promise<Check> {
  const throttling = throttlingOf(options);
  const apis: ApiName[] = ['pets', 'messages', 'account'];
  const atLimits = apis
    .flatMap((api) =>
      [...ALL_ROUTES.filter((route) => route.api === api).map(routeKeyOf), DEFAULT_ROUTE_KEY, PREFLIGHT_ROUTE_KEY].map(
        (key) => [api, key] as const,
      ),
    )
    .reduce((sum, [api, key]) => sum + routeThrottle(throttling[api], key).rateLimit, 0);
  const apiGateway = withCallDeadline(new APIGatewayClient({ ...settings, ...fresh(), region: target.region }), target.region);
  const { throttleSettings } = await apiGateway.send(new GetApiGatewayAccountCommand({})).finally(() => apiGateway.destroy());
  const rate = throttleSettings?.rateLimit ?? 0;
  const detail = `every route of the stage at its limit is ${atLimits.toLocaleString('en-US')} requests/s; the account takes ${rate.toLocaleString('en-US')} in ${target.region}`;
  if (atLimits <= rate) return { name: 'API Gateway throttle', ok: true, detail };
  return {
    name: 'API Gateway throttle',
    ok: false,
    detail,
    fix: `${quotaRequest('apigateway', 'L-8A5B8E43', atLimits, target.region)}\nor lower the stage's rate limits in ${stageFileOf(stage)}`,
  };
}

async function sesSender(identity: string, target: AwsTarget, settings: ClientSettings): Promise<Check[]> {
  const ses = withCallDeadline(new SESv2Client({ ...settings, ...fresh(), region: target.region }), target.region);
  try {
    const name = `SES identity ${identity}`;
    const create = `aws sesv2 create-email-identity --email-identity ${identity} --region ${target.region}`;
    const verify = identity.includes('@')
      ? 'then open the link SES mails to that address'
      : "then publish the DKIM records it prints in the domain's DNS";
    const found = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity })).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'NotFoundException') return undefined;
      throw error;
    });
    const identityCheck: Check = !found
      ? { name, ok: false, detail: `SES has no such identity in ${target.region}`, fix: `${create}\n${verify}` }
      : found.VerifiedForSendingStatus
        ? { name, ok: true, detail: `verified in ${target.region}` }
        : { name, ok: false, detail: `not verified yet (${found.VerificationStatus ?? 'no status'})`, fix: verify.replace('then ', '') };
    const account = await ses.send(new GetSesAccountCommand({}));
    const accessCheck: Check = account.ProductionAccessEnabled
      ? { name: 'SES production access', ok: true, detail: `on in ${target.region}` }
      : {
          name: 'SES production access',
          ok: false,
          detail: `the account is in the SES sandbox in ${target.region}: it sends only to verified addresses, so strangers cannot sign up`,
          fix: `aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url <the portal's address> --region ${target.region}\n(AWS reviews the request, usually within a day)`,
        };
    return [identityCheck, accessCheck];
  } finally {
    ses.destroy();
  }
}

/** Distributions a stage adds: its portal's, and with a front door one per API (lib/petstore-front-door.ts). */
const distributionsOf = (options: StageOptions): number => 1 + (options.frontDoor ? 3 : 0);

/**
 * Whether these credentials reach CloudFront (an organization's policy can deny it), and how many distributions the
 * account holds beside the ones the stage adds. Whether AWS has verified a new account for its first distribution no
 * API tells: the deploy's first CloudFront resource says so, and AWS Support lifts it.
 */
async function cloudFront(options: StageOptions, settings: ClientSettings): Promise<Check> {
  const client = new CloudFrontClient({ ...settings, region: EDGE_REGION });
  try {
    let held = 0;
    for await (const page of paginateListDistributions({ client }, {})) held += page.DistributionList?.Quantity ?? 0;
    const adds = distributionsOf(options);
    const detail = `the account has ${held} distributions and the stage adds ${adds}`;
    if (held + adds <= DEFAULT_DISTRIBUTIONS) return { name: 'CloudFront', ok: true, detail: `usable by these credentials: ${detail}` };
    return {
      name: 'CloudFront',
      ok: false,
      detail: `${detail}, over the default quota of ${DEFAULT_DISTRIBUTIONS} (ignore this if AWS raised the account's)`,
      fix: quotaRequest('cloudfront', 'L-24B04930', held + adds, EDGE_REGION),
    };
  } finally {
    client.destroy();
  }
}

/**
 * After a deploy: the key in the stage check's secret is registered and not revoked. The key stays in memory: only
 * its id is printed. Before the first deploy there is nothing to check; the check mints its key at its first run.
 */
async function stageCheckKey(stage: StageName, target: AwsTarget, settings: ClientSettings): Promise<Check> {
  const name = "stage check's key";
  const stackName = stackNameOf(stage);
  const fix = `npm run keys -- rotate-stage-check --stage ${stage}`;
  const client = { ...settings, region: target.region };
  const cloudFormation = new CloudFormationClient(client);
  const secrets = new SecretsManagerClient(client);
  const dynamoDb = new DynamoDBClient(client);
  try {
    const stacks = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName })).catch((error: unknown) => {
      if (error instanceof Error && /does not exist/.test(error.message)) return undefined;
      throw error;
    });
    if (!stacks) return { name, ok: true, detail: `${stackName} is not deployed yet: its check mints its key at its first run` };
    const outputs = new Map(stacks.Stacks?.[0]?.Outputs?.map((output) => [output.OutputKey, output.OutputValue]));
    const [secretId, table] = [outputs.get('StageCheckKeySecret'), outputs.get('ApiKeysTableName')];
    if (!secretId || !table) return { name, ok: false, detail: `${stackName} has no StageCheckKeySecret or ApiKeysTableName output`, fix };
    const { SecretString: held = '' } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!isWellFormedApiKey(held)) {
      return { name, ok: false, detail: 'its secret holds no key yet: the check mints one at its first run, within minutes', fix };
    }
    const { Item } = await dynamoDb.send(
      new GetItemCommand({ TableName: table, Key: { keyHash: { S: hashApiKey(held) } }, ConsistentRead: true }),
    );
    const keyId = Item?.keyId?.S;
    if (!keyId) return { name, ok: false, detail: `the key in its secret is not in ${table}`, fix };
    const revokedAt = Item.revokedAt?.S;
    if (revokedAt) return { name, ok: false, detail: `${keyId}, in its secret, was revoked at ${revokedAt}`, fix };
    return { name, ok: true, detail: `${keyId}, in its secret, is live in ${table}` };
  } finally {
    cloudFormation.destroy();
    secrets.destroy();
    dynamoDb.destroy();
  }
}

/** A check that could not ask AWS is a FAIL that says what the credentials may not do. */
const attempt = (name: string, action: string, check: () => Promise<Check | Check[]>): Promise<Check[]> =>
  check().then(
    (result) => [result].flat(),
    (error: unknown) => [
      error instanceof EndpointUnreachableError
        ? { name, ok: false, detail: error.message }
        : {
            name,
            ok: false,
            detail: error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error),
            fix: `let these credentials call ${action} (read-only), or run the doctor with credentials that may`,
          },
    ],
  );

const print = (say: (line: string) => void, { name, ok, detail, fix }: Check): void => {
  say(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
  if (fix) for (const line of fix.split('\n')) say(`     fix: ${line}`);
};

export async function doctor(argv: string[], settings: ClientSettings = {}, say: (line: string) => void = console.log): Promise<number> {
  const args = parseStageArgs(argv, { c: { type: 'string', short: 'c', multiple: true } }, USAGE, say, say);
  if (typeof args === 'number') return args;
  const { values, stage } = args;
  const target = await stageTarget(stage, values, say);
  const client = { ...clientConfigOf(target), ...settings };
  const sts = withCallDeadline(new STSClient(client), target.region);
  // Without a caller nothing else can be asked: the failure, explained, ends the run (scripts/aws-target.ts).
  const caller = await sts.send(new GetCallerIdentityCommand({})).finally(() => sts.destroy());
  const checks: Check[] = [
    { name: 'caller', ok: true, detail: `${caller.Arn ?? '?'} (account ${caller.Account ?? '?'})` },
    { name: 'Region', ok: true, detail: `${target.region} (${target.regionSource}), as cdk deploy finds it` },
  ];
  let options: StageOptions;
  try {
    const read = readStageOptions(stage, overridesOf(values.c ?? []));
    options = read.options;
    checks.push(
      read.placeholders.length === 0
        ? { name: stageFileOf(stage), ok: true, detail: 'every option set' }
        : {
            name: stageFileOf(stage),
            ok: false,
            detail: `${read.placeholders.join(', ')} still ${read.placeholders.length > 1 ? 'hold placeholders' : 'holds a placeholder'}`,
            fix: `write the real value${read.placeholders.length > 1 ? 's' : ''} into ${stageFileOf(stage)} (docs/deploy-reference.md, Options)`,
          },
    );
  } catch (error) {
    checks.push({
      name: stageFileOf(stage),
      ok: false,
      detail: (error as Error).message,
      fix: `correct ${stageFileOf(stage)}, then run the doctor again`,
    });
    checks.forEach((check) => print(say, check));
    return 1;
  }
  const account = caller.Account ?? '<account>';
  const edge = options.frontDoor && target.region !== EDGE_REGION;
  const sender =
    options.sesFromEmail === 'cognito' || PLACEHOLDER.test(options.sesFromEmail)
      ? undefined
      : (options.sesVerifiedDomain ?? options.sesFromEmail);
  const results = await Promise.all([
    attempt(`CDK bootstrap of ${target.region}`, 'cloudformation:DescribeStacks', () => bootstrap(target.region, account, client, '')),
    ...(edge
      ? [
          attempt(`CDK bootstrap of ${EDGE_REGION}`, 'cloudformation:DescribeStacks', () =>
            bootstrap(EDGE_REGION, account, client, ' (the front door’s edge stack)'),
          ),
        ]
      : []),
    attempt('Lambda concurrency', 'lambda:GetAccountSettings', () => lambdaConcurrency(options, target, client)),
    attempt('API Gateway throttle', 'apigateway:GET on /account', () => apiGatewayThrottle(options, target, client, stage)),
    ...(sender
      ? [attempt(`SES identity ${sender}`, 'ses:GetEmailIdentity and ses:GetAccount', () => sesSender(sender, target, client))]
      : []),
    attempt('CloudFront', 'cloudfront:ListDistributions', () => cloudFront(options, client)),
    ...(options.stageCheckMinutes
      ? [
          attempt("stage check's key", 'cloudformation:DescribeStacks, secretsmanager:GetSecretValue and dynamodb:GetItem', () =>
            stageCheckKey(stage, target, client),
          ),
        ]
      : []),
    attempt('alarm subscription', 'cloudformation:ListStackResources and sns:ListSubscriptionsByTopic', () =>
      alarmSubscriptionChecks(stage, options, target, settings),
    ),
  ]);
  checks.push(...results.flat());
  checks.forEach((check) => print(say, check));
  const failed = checks.filter((check) => !check.ok).length;
  say(failed === 0 ? `${checks.length} checks ok: ready to deploy ${stage}` : `${failed} of ${checks.length} checks failed`);
  return failed === 0 ? 0 : 1;
}

// Run as a command, not when a test imports it (jest's CommonJS has no import.meta to compare with).
if (/doctor\.ts$/.test(process.argv[1] ?? '')) runOperatorCommand((argv) => doctor(argv));
