/**
 * `npm run doctor` against a stand-in for the AWS APIs it calls (STS, CloudFormation, Lambda, API Gateway,
 * SES v2, and after a deploy Secrets Manager and DynamoDB for the stage check's key): each answers as AWS documents its call, refuses a request without its required parameters or a
 * SigV4 signature, and reads the Region from the signature's scope. The account behind it is set per test.
 */
import { createServer } from 'node:http';
import { issueApiKey } from '#auth/api-keys';
import { doctor } from '../../scripts/doctor';
import { bodyOf, listenOnLoopback, type Listening } from '../support/loopback-server';

interface Account {
  /** Region → version of its CDKToolkit stack. */
  readonly bootstrapped: Readonly<Record<string, number>>;
  readonly concurrency: { readonly limit: number; readonly unreserved: number };
  readonly apiGatewayRate: number;
  /** SES identity → verified for sending. */
  readonly identities: Readonly<Record<string, boolean>>;
  readonly productionAccess: boolean;
  /** Actions the caller may not call, answered AccessDenied. */
  readonly denied?: readonly string[];
  /** CloudFront distributions the account holds. @default 0 */
  readonly distributions?: number;
  /** The stage's stack, deployed: what its stage check's secret holds, and whether the API-keys table has that key live. */
  readonly deployed?: { readonly secret: 'key' | 'generated'; readonly record: 'live' | 'revoked' | 'absent' };
}

/** The stage check's key in the deployed stand-in stack. */
const CHECK_KEY = issueApiKey({ accountId: 'acct_stage_check' });
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:StageCheckKey-AbCdEf';
const KEYS_TABLE = 'PetStore-prod-TablesApiKeys-ABC';

const HEALTHY: Account = {
  bootstrapped: { 'eu-west-1': 28, 'us-east-1': 28 },
  concurrency: { limit: 1_000, unreserved: 1_000 },
  apiGatewayRate: 10_000,
  identities: { 'no-reply@example.com': true },
  productionAccess: true,
};

/** A new account: the home Region bootstrapped only, Lambda's reduced concurrency quota, SES untouched. */
const NEW_ACCOUNT: Account = {
  bootstrapped: { 'eu-west-1': 28 },
  concurrency: { limit: 10, unreserved: 10 },
  apiGatewayRate: 10_000,
  identities: {},
  productionAccess: false,
};

let account: Account = HEALTHY;
/** Every call the stand-in answered: `service Region action`. */
const calls: string[] = [];

const xml = (action: string, result: string) =>
  `<${action}Response><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></${action}Response>`;
const queryError = (code: string, message: string) =>
  `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>r</RequestId></ErrorResponse>`;

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly type?: string;
  readonly errorType?: string;
}

function answer(service: string, region: string, method: string, path: string, form: URLSearchParams, target = '', text = ''): Answer {
  // Query protocols name the action in the form, JSON ones in X-Amz-Target, REST ones by method and path.
  const action = form.get('Action') ?? (target.split('.')[1] || `${method} ${path}`);
  calls.push(`${service} ${region} ${action}`);
  if (account.denied?.includes(`${service}:${action}`)) {
    const message = `User: arn:aws:iam::123456789012:user/alice is not authorized to perform: ${service}:${action}`;
    return service === 'cloudformation' || service === 'sts' || service === 'cloudfront'
      ? { status: 403, body: queryError('AccessDenied', message), type: 'text/xml' }
      : { status: 403, body: JSON.stringify({ message }), errorType: 'AccessDeniedException' };
  }
  if (service === 'sts' && action === 'GetCallerIdentity' && form.get('Version') === '2011-06-15') {
    const result = '<Arn>arn:aws:iam::123456789012:user/alice</Arn><UserId>AIDAEXAMPLE</UserId><Account>123456789012</Account>';
    return { status: 200, body: xml(action, result), type: 'text/xml' };
  }
  if (service === 'cloudformation' && action === 'DescribeStacks' && form.get('Version') === '2010-05-15') {
    const stackName = form.get('StackName');
    if (!stackName) return { status: 400, body: queryError('ValidationError', 'StackName is required here'), type: 'text/xml' };
    if (stackName.startsWith('PetStore-') && account.deployed) {
      const outputs = [
        ['StageCheckKeySecret', SECRET_ARN],
        ['ApiKeysTableName', KEYS_TABLE],
      ].map(([key, value]) => `<member><OutputKey>${key}</OutputKey><OutputValue>${value}</OutputValue></member>`);
      const stack = `<member><StackName>${stackName}</StackName><StackId>arn:aws:cloudformation:${region}:123456789012:stack/${stackName}/1</StackId><CreationTime>2025-01-01T00:00:00Z</CreationTime><StackStatus>UPDATE_COMPLETE</StackStatus><Outputs>${outputs.join('')}</Outputs></member>`;
      return { status: 200, body: xml(action, `<Stacks>${stack}</Stacks>`), type: 'text/xml' };
    }
    const version = stackName === 'CDKToolkit' ? account.bootstrapped[region] : undefined;
    if (version === undefined) {
      return { status: 400, body: queryError('ValidationError', `Stack with id ${stackName} does not exist`), type: 'text/xml' };
    }
    const stack = `<member><StackName>CDKToolkit</StackName><StackId>arn:aws:cloudformation:${region}:123456789012:stack/CDKToolkit/1</StackId><CreationTime>2025-01-01T00:00:00Z</CreationTime><StackStatus>UPDATE_COMPLETE</StackStatus><Outputs><member><OutputKey>BootstrapVersion</OutputKey><OutputValue>${version}</OutputValue></member></Outputs></member>`;
    return { status: 200, body: xml(action, `<Stacks>${stack}</Stacks>`), type: 'text/xml' };
  }
  if (service === 'secretsmanager' && action === 'GetSecretValue') {
    const { SecretId } = JSON.parse(text) as { SecretId?: string };
    if (SecretId !== SECRET_ARN)
      return { status: 400, body: JSON.stringify({ message: 'no such secret' }), errorType: 'ResourceNotFoundException' };
    const value = account.deployed?.secret === 'key' ? CHECK_KEY.key : 'x7Hk2-generated-by-secrets-manager';
    return { status: 200, body: JSON.stringify({ ARN: SECRET_ARN, Name: 'StageCheckKey', SecretString: value, VersionId: 'v1' }) };
  }
  if (service === 'dynamodb' && action === 'GetItem') {
    const { TableName, Key } = JSON.parse(text) as { TableName?: string; Key?: { keyHash?: { S?: string } } };
    if (!TableName || !Key)
      return { status: 400, body: JSON.stringify({ message: 'TableName and Key are required' }), errorType: 'ValidationException' };
    if (TableName !== KEYS_TABLE)
      return { status: 400, body: JSON.stringify({ message: 'no such table' }), errorType: 'ResourceNotFoundException' };
    const { record } = account.deployed ?? {};
    if (Key.keyHash?.S !== CHECK_KEY.record.keyHash || record === 'absent') return { status: 200, body: '{}' };
    const item = { keyHash: { S: CHECK_KEY.record.keyHash }, keyId: { S: CHECK_KEY.record.keyId }, accountId: { S: 'acct_stage_check' } };
    return {
      status: 200,
      body: JSON.stringify({ Item: record === 'revoked' ? { ...item, revokedAt: { S: '2026-01-02T03:04:05.000Z' } } : item }),
    };
  }
  if (service === 'cloudfront' && action === 'GET /2020-05-31/distribution') {
    const list = `<DistributionList xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Marker></Marker><MaxItems>100</MaxItems><IsTruncated>false</IsTruncated><Quantity>${account.distributions ?? 0}</Quantity></DistributionList>`;
    return { status: 200, body: list, type: 'text/xml' };
  }
  if (service === 'lambda' && action === 'GET /2016-08-19/account-settings') {
    const { limit, unreserved } = account.concurrency;
    const body = {
      AccountLimit: {
        TotalCodeSize: 80_530_636_800,
        CodeSizeUnzipped: 262_144_000,
        CodeSizeZipped: 52_428_800,
        ConcurrentExecutions: limit,
        UnreservedConcurrentExecutions: unreserved,
      },
      AccountUsage: { TotalCodeSize: 0, FunctionCount: 0 },
    };
    return { status: 200, body: JSON.stringify(body) };
  }
  if (service === 'apigateway' && action === 'GET /account') {
    return {
      status: 200,
      body: JSON.stringify({
        throttleSettings: { burstLimit: 5_000, rateLimit: account.apiGatewayRate },
        features: [],
        apiKeyVersion: '4',
      }),
    };
  }
  if (service === 'ses' && action === 'GET /v2/email/account') {
    return {
      status: 200,
      body: JSON.stringify({ ProductionAccessEnabled: account.productionAccess, SendingEnabled: true, EnforcementStatus: 'HEALTHY' }),
    };
  }
  // No stage is deployed in these accounts (test/unit/doctor-alarm-subscriptions.test.ts deploys one).
  if (service === 'cloudformation' && action === 'ListStackResources' && form.get('StackName')) {
    return { status: 400, body: queryError('ValidationError', `Stack with id ${form.get('StackName')} does not exist`), type: 'text/xml' };
  }
  const identity = /^GET \/v2\/email\/identities\/([^/]+)$/.exec(action)?.[1];
  if (service === 'ses' && identity) {
    const name = decodeURIComponent(identity);
    const verified = account.identities[name];
    if (verified === undefined)
      return { status: 404, body: JSON.stringify({ message: `Email identity ${name} does not exist.` }), errorType: 'NotFoundException' };
    const type = name.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN';
    return {
      status: 200,
      body: JSON.stringify({
        IdentityType: type,
        VerifiedForSendingStatus: verified,
        VerificationStatus: verified ? 'SUCCESS' : 'PENDING',
      }),
    };
  }
  return { status: 400, body: `the stand-in does not answer ${service} ${action}`, type: 'text/plain' };
}

let standIn: Listening;
beforeAll(async () => {
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      // The documented path may end in `/`, which the SDK leaves out. SigV4: `Credential=<key id>/<date>/<region>/<service>/aws4_request`; AWS refuses an unsigned request.
      const scope = /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request/.exec(request.headers.authorization ?? '');
      const { status, body, type, errorType } = scope
        ? answer(
            scope[2] ?? '',
            scope[1] ?? '',
            request.method ?? '',
            (request.url ?? '').split('?')[0]?.replace(/(.)\/$/, '$1') ?? '',
            new URLSearchParams(text),
            String(request.headers['x-amz-target'] ?? ''),
            text,
          )
        : { status: 403, body: 'missing SigV4 authorization', type: 'text/plain' };
      response.writeHead(status, { 'content-type': type ?? 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
      response.end(body);
    });
  });
  standIn = await listenOnLoopback(server);
});
afterAll(() => standIn.close());
beforeEach(() => {
  calls.length = 0;
});

/** `npm run doctor -- …` in process, its SDK clients pointed at the stand-in; the lines it printed and its exit code. */
async function run(given: Account, ...argv: string[]): Promise<{ code: number; lines: string[] }> {
  account = given;
  const lines: string[] = [];
  const settings = { endpoint: standIn.origin, credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'x' } };
  const code = await doctor([...argv, '--region', 'eu-west-1'], settings, (line) => lines.push(...line.split('\n')));
  return { code, lines };
}

const PROD_FILLED_IN = ['--stage', 'prod', '-c', 'alarmEmail=ops@example.com', '-c', 'sesFromEmail=no-reply@example.com'];

it('a new account fails prod with the fix of each failure: the us-east-1 bootstrap, the reduced concurrency quota, SES', async () => {
  const { code, lines } = await run(NEW_ACCOUNT, ...PROD_FILLED_IN);
  expect(code).toBe(1);
  expect(lines).toEqual([
    'Stack PetStore-prod in eu-west-1 (region: --region)',
    'ok   caller: arn:aws:iam::123456789012:user/alice (account 123456789012)',
    'ok   Region: eu-west-1 (--region), as cdk deploy finds it',
    'ok   config/prod.json: every option set',
    'ok   CDK bootstrap of eu-west-1: CDKToolkit version 28',
    'FAIL CDK bootstrap of us-east-1 (the front door’s edge stack): no CDKToolkit stack',
    '     fix: npm run cdk -- bootstrap aws://123456789012/us-east-1',
    'FAIL Lambda concurrency: the account has 10 concurrent executions in eu-west-1, 10 unreserved; the stage reserves 600 (createPet 400, submitMessage 200) and Lambda keeps 100 unreserved: the deploy would fail at the first reservation',
    '     fix: aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value 1000 --region eu-west-1',
    '     fix: or, until AWS raises it, deploy without reservations: -c reservedConcurrency=false (docs/deploy.md)',
    'ok   API Gateway throttle: every route of the stage at its limit is 6,100 requests/s; the account takes 10,000 in eu-west-1',
    'FAIL SES identity no-reply@example.com: SES has no such identity in eu-west-1',
    '     fix: aws sesv2 create-email-identity --email-identity no-reply@example.com --region eu-west-1',
    '     fix: then open the link SES mails to that address',
    'FAIL SES production access: the account is in the SES sandbox in eu-west-1: it sends only to verified addresses, so strangers cannot sign up',
    "     fix: aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url <the portal's address> --region eu-west-1",
    '     fix: (AWS reviews the request, usually within a day)',
    'ok   CloudFront: usable by these credentials: the account has 0 distributions and the stage adds 4',
    "ok   stage check's key: PetStore-prod is not deployed yet: its check mints its key at its first run",
    'ok   alarm subscription: not deployed yet: after the first deploy, confirm the subscription of ops@example.com, then run the doctor again',
    '4 of 12 checks failed',
  ]);
  // Read-only calls, each in the Region it concerns.
  expect(calls.sort()).toEqual(
    [
      'sts eu-west-1 GetCallerIdentity',
      'cloudformation eu-west-1 DescribeStacks',
      'cloudformation eu-west-1 DescribeStacks',
      'cloudformation eu-west-1 DescribeStacks',
      'cloudformation us-east-1 DescribeStacks',
      'lambda eu-west-1 GET /2016-08-19/account-settings',
      'apigateway eu-west-1 GET /account',
      'ses eu-west-1 GET /v2/email/identities/no-reply%40example.com',
      'ses eu-west-1 GET /v2/email/account',
      'cloudfront us-east-1 GET /2020-05-31/distribution',
      'cloudformation eu-west-1 ListStackResources',
    ].sort(),
  );
});

it('a healthy account passes prod, and the doctor exits 0', async () => {
  const { code, lines } = await run(HEALTHY, ...PROD_FILLED_IN);
  expect(lines.filter((line) => !line.startsWith('ok   '))).toEqual([
    'Stack PetStore-prod in eu-west-1 (region: --region)',
    '12 checks ok: ready to deploy prod',
  ]);
  expect(code).toBe(0);
});

it('dev deploys on a new account: it reserves no concurrency and has no front door to bootstrap us-east-1 for', async () => {
  const { code, lines } = await run(NEW_ACCOUNT, '--stage', 'dev');
  expect(lines).toContain(
    'ok   Lambda concurrency: the account has 10 concurrent executions in eu-west-1, 10 unreserved; the stage reserves none',
  );
  expect(lines).toContain(
    "ok   alarm subscription: none: dev's alarms still change state, show on its dashboard and roll canary deploys back, but tell no one; set alarmEmail or alarmHttpsEndpoint in config/dev.json to be told",
  );
  expect(lines.at(-1)).toBe('8 checks ok: ready to deploy dev');
  expect(code).toBe(0);
});

it("prod's committed placeholders fail, naming the keys; the sender's checks wait for a real address", async () => {
  const { code, lines } = await run(HEALTHY, '--stage', 'prod');
  expect(lines).toEqual(
    expect.arrayContaining([
      'FAIL config/prod.json: alarmEmail, sesFromEmail still hold placeholders',
      '     fix: write the real values into config/prod.json (docs/deploy-reference.md, Options)',
    ]),
  );
  expect(lines.some((line) => line.includes('SES'))).toBe(false);
  expect(code).toBe(1);
});

it('a verified domain is checked in place of the address; an unverified identity says what is left to do', async () => {
  const { lines } = await run(
    { ...HEALTHY, identities: { 'example.com': false } },
    ...PROD_FILLED_IN,
    '-c',
    'sesVerifiedDomain=example.com',
  );
  expect(lines).toEqual(
    expect.arrayContaining([
      'FAIL SES identity example.com: not verified yet (PENDING)',
      "     fix: publish the DKIM records it prints in the domain's DNS",
    ]),
  );
});

it('an API Gateway account throttle below the stage’s routes fails with the quota request', async () => {
  const { lines } = await run({ ...HEALTHY, apiGatewayRate: 2_500 }, ...PROD_FILLED_IN);
  expect(lines).toEqual(
    expect.arrayContaining([
      'FAIL API Gateway throttle: every route of the stage at its limit is 6,100 requests/s; the account takes 2,500 in eu-west-1',
      '     fix: aws service-quotas request-service-quota-increase --service-code apigateway --quota-code L-8A5B8E43 --desired-value 6100 --region eu-west-1',
      "     fix: or lower the stage's rate limits in config/prod.json",
    ]),
  );
});

it('a call the credentials may not make fails that check with the permission it needs; the others still run', async () => {
  const { code, lines } = await run({ ...HEALTHY, denied: ['lambda:GET /2016-08-19/account-settings'] }, ...PROD_FILLED_IN);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^FAIL Lambda concurrency: AccessDeniedException: User: .* is not authorized to perform: lambda:/),
      '     fix: let these credentials call lambda:GetAccountSettings (read-only), or run the doctor with credentials that may',
      'ok   API Gateway throttle: every route of the stage at its limit is 6,100 requests/s; the account takes 10,000 in eu-west-1',
    ]),
  );
  expect(code).toBe(1);
});

it('a stage option the file or -c gets wrong stops the doctor before the account checks, with the reason', async () => {
  const { code, lines } = await run(HEALTHY, '--stage', 'staging', '-c', 'reservedConcurrency=maybe');
  expect(lines.slice(-2)).toEqual([
    'FAIL config/staging.json: reservedConcurrency: "maybe" is neither true nor false (-c)',
    '     fix: correct config/staging.json, then run the doctor again',
  ]);
  expect(code).toBe(1);
});

it('-c is read as cdk reads it: a bare -c hotfix is refused under its own name, -c hotfix=true is an option', async () => {
  const bare = await run(HEALTHY, '--stage', 'staging', '-c', 'hotfix');
  expect(bare.lines.slice(-2)).toEqual([
    'FAIL config/staging.json: -c hotfix: not key=value (cdk would ignore it)',
    '     fix: correct config/staging.json, then run the doctor again',
  ]);
  expect(bare.code).toBe(1);
  const given = await run(HEALTHY, '--stage', 'staging', '-c', 'hotfix=true');
  expect(given.lines).toContain('ok   config/staging.json: every option set');
});

it('without --stage it says which stages there are, and calls nothing', async () => {
  const { code, lines } = await run(HEALTHY);
  expect(code).toBe(2);
  expect(lines[0]).toBe('--stage must be one of dev, staging, prod');
  expect(calls).toEqual([]);
});

describe('CloudFront, which every stage uses (its portal; with a front door, one distribution per API)', () => {
  it('an account an organization policy keeps from CloudFront fails, naming the permission', async () => {
    const { code, lines } = await run({ ...HEALTHY, denied: ['cloudfront:GET /2020-05-31/distribution'] }, '--stage', 'dev');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^FAIL CloudFront: AccessDenied: User: .* is not authorized to perform: cloudfront:/),
        '     fix: let these credentials call cloudfront:ListDistributions (read-only), or run the doctor with credentials that may',
      ]),
    );
    expect(code).toBe(1);
  });

  it("an account whose distributions and the stage's would pass the default quota fails with the quota request", async () => {
    const { lines } = await run({ ...HEALTHY, distributions: 198 }, ...PROD_FILLED_IN);
    expect(lines).toEqual(
      expect.arrayContaining([
        "FAIL CloudFront: the account has 198 distributions and the stage adds 4, over the default quota of 200 (ignore this if AWS raised the account's)",
        '     fix: aws service-quotas request-service-quota-increase --service-code cloudfront --quota-code L-24B04930 --desired-value 202 --region us-east-1',
      ]),
    );
  });
});

describe("after a deploy, the stage check's key", () => {
  const lineOf = async (deployed: Account['deployed']): Promise<string[]> => {
    const { lines } = await run({ ...HEALTHY, ...(deployed ? { deployed } : {}) }, ...PROD_FILLED_IN);
    const at = lines.findIndex((line) => line.includes("stage check's key"));
    return lines.slice(at, lines[at + 1]?.startsWith('     fix:') ? at + 2 : at + 1);
  };

  it('is nothing to check before the first deploy', async () => {
    expect(await lineOf(undefined)).toEqual([
      "ok   stage check's key: PetStore-prod is not deployed yet: its check mints its key at its first run",
    ]);
  });

  it('is reported live when its secret holds a key the API-keys table has, unrevoked (the key itself is never printed)', async () => {
    const lines = await lineOf({ secret: 'key', record: 'live' });
    expect(lines).toEqual([`ok   stage check's key: ${CHECK_KEY.record.keyId}, in its secret, is live in ${KEYS_TABLE}`]);
    expect(lines.join('\n')).not.toContain(CHECK_KEY.key);
  });

  it.each([
    [
      { secret: 'generated', record: 'absent' } as const,
      'its secret holds no key yet: the check mints one at its first run, within minutes',
    ],
    [{ secret: 'key', record: 'absent' } as const, `the key in its secret is not in ${KEYS_TABLE}`],
    [{ secret: 'key', record: 'revoked' } as const, `${CHECK_KEY.record.keyId}, in its secret, was revoked at 2026-01-02T03:04:05.000Z`],
  ])('fails when %j, with the command that replaces it', async (deployed, detail) => {
    expect(await lineOf(deployed)).toEqual([
      `FAIL stage check's key: ${detail}`,
      '     fix: npm run keys -- rotate-stage-check --stage prod',
    ]);
  });
});
