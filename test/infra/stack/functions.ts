import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { NODEJS_BUNDLING } from '#lib/petstore-function';
import { STAGES, type StageName } from '#shared/stages';
import { IDENTITY_ACCESS } from '#shared/accounts';
import { TABLE_ACCESS, type FunctionName } from '#shared/table-access';
import { logSourcesOf } from '../../../scripts/logs/lines';
import {
  functionNamed,
  grants,
  indexArn,
  referencedId,
  resourcesOfType,
  statementsOf,
  synth,
  tableArn,
  tableId,
  type TableName,
} from '../support/synth';

const FUNCTIONS: readonly FunctionName[] = [
  'listPets',
  'createPet',
  'getPet',
  'submitMessage',
  'authorizer',
  'notFound',
  'listAccountKeys',
  'createAccountKey',
  'revokeAccountKey',
  'deleteAccount',
  'accountNotFound',
  'preflight',
];

const templateOf = (stage: StageName) => synth(stage).template;

/** Which table names each function is told: the tables it touches, nothing else. */
const TABLE_ENV: Record<FunctionName, Partial<Record<TableName, string>>> = {
  listPets: { pets: 'PETS_TABLE_NAME' },
  createPet: { pets: 'PETS_TABLE_NAME', idempotency: 'IDEMPOTENCY_TABLE_NAME' },
  getPet: { pets: 'PETS_TABLE_NAME' },
  submitMessage: { messages: 'MESSAGES_TABLE_NAME', idempotency: 'IDEMPOTENCY_TABLE_NAME' },
  authorizer: { apiKeys: 'API_KEYS_TABLE_NAME' },
  notFound: {},
  listAccountKeys: { apiKeys: 'API_KEYS_TABLE_NAME' },
  createAccountKey: { apiKeys: 'API_KEYS_TABLE_NAME', accounts: 'ACCOUNTS_TABLE_NAME' },
  revokeAccountKey: { apiKeys: 'API_KEYS_TABLE_NAME', accounts: 'ACCOUNTS_TABLE_NAME' },
  deleteAccount: { apiKeys: 'API_KEYS_TABLE_NAME', accounts: 'ACCOUNTS_TABLE_NAME' },
  accountNotFound: {},
  preflight: {},
  stageCheck: { apiKeys: 'API_KEYS_TABLE_NAME' },
};

const LOG_SETTINGS = {
  dev: { level: 'DEBUG', retentionDays: 7, logDeletionPolicy: 'Delete' },
  staging: { level: 'INFO', retentionDays: 30, logDeletionPolicy: 'Delete' },
  prod: { level: 'INFO', retentionDays: 180, logDeletionPolicy: 'Retain' },
} as const;

describe.each(STAGES)('%s stage functions', (stage) => {
  // The writes' reserved concurrency: test/infra/stack/capacity.ts.
  it.each(FUNCTIONS.filter((name) => !['createPet', 'submitMessage'].includes(name)))(
    '%s runs nodejs24.x on arm64 with 512 MB, a 10 s timeout and no reserved concurrency',
    (name) => {
      const [, fn] = functionNamed(templateOf(stage), name);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: 10,
        Handler: 'index.handler',
      });
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    },
  );

  it.each(FUNCTIONS)(
    "%s gets exactly its table names, logging settings, stage (the metrics' Stage dimension) and (account API) token settings in its environment",
    (name) => {
      const { template } = synth(stage);
      const [, fn] = functionNamed(template, name);
      const tableNames = Object.fromEntries(
        Object.entries(TABLE_ENV[name]).map(([table, envVar]) => [envVar, { Ref: tableId(template, table as TableName) }]),
      );
      const account = ['listAccountKeys', 'createAccountKey', 'revokeAccountKey', 'deleteAccount', 'accountNotFound'].includes(name);
      expect((fn.Properties.Environment as { Variables: unknown }).Variables).toEqual({
        ...tableNames,
        POWERTOOLS_SERVICE_NAME: 'petstore',
        POWERTOOLS_LOG_LEVEL: LOG_SETTINGS[stage].level,
        POWERTOOLS_TRACE_ENABLED: String(stage !== 'dev' && name !== 'authorizer'),
        // The metrics' Stage dimension.
        PETSTORE_STAGE: stage,
        // The account API's functions: the user pool's issuer and the portal client, checked again on every call.
        ...(account ? { ACCOUNT_TOKEN_ISSUER: expect.anything(), ACCOUNT_TOKEN_AUDIENCE: expect.anything() } : {}),
        ...(name === 'deleteAccount' ? { USER_POOL_ID: expect.anything() } : {}),
        // How the pets' status index is keyed (./status-shards.ts).
        ...(TABLE_ENV[name].pets ? { PETS_STATUS_SHARDS: expect.any(String) } : {}),
      });
    },
  );

  it.each(FUNCTIONS)('%s logs JSON at the stage level into its own log group with the stage retention', (name) => {
    const template = templateOf(stage);
    const [, fn] = functionNamed(template, name);
    const logging = fn.Properties.LoggingConfig as { LogFormat: string; ApplicationLogLevel: string; LogGroup: unknown };
    expect(logging).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: LOG_SETTINGS[stage].level });
    const logGroup = resourcesOfType(template, 'AWS::Logs::LogGroup').get(referencedId(logging.LogGroup) ?? '');
    expect(logGroup?.Properties.RetentionInDays).toBe(LOG_SETTINGS[stage].retentionDays);
    expect(logGroup?.DeletionPolicy).toBe(LOG_SETTINGS[stage].logDeletionPolicy);
  });
});

describe.each(STAGES)('%s stage permissions', (stage) => {
  /**
   * Exactly the rows of shared/table-access.ts, as template resources: the stack must grant what the
   * table says, and test/infra/iam-from-calls.test.ts holds the table to the calls the code makes.
   */
  const expectedDynamoDbGrants = (name: FunctionName): string[] => {
    const template = templateOf(stage);
    return grants(
      TABLE_ACCESS[name].map((access) => {
        const table = tableId(template, access.table);
        return { Action: [...access.actions], Resource: [access.index ? indexArn(table, access.index) : tableArn(table)] };
      }),
    );
  };

  it.each(FUNCTIONS)('%s may call exactly its DynamoDB actions on exactly its tables or index', (name) => {
    const template = templateOf(stage);
    const [functionId] = functionNamed(template, name);
    const dynamoDb = statementsOf(template, functionId).filter((statement) =>
      statement.Action.some((action) => action.startsWith('dynamodb:')),
    );
    for (const statement of dynamoDb) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Condition).toBeUndefined();
    }
    expect(grants(dynamoDb)).toEqual(expectedDynamoDbGrants(name));
  });

  it.each(FUNCTIONS)(
    '%s may write only to its own log group and do nothing else (but its shared/accounts.ts actions on this user pool, and X-Ray where traced)',
    (name) => {
      const { template } = synth(stage);
      const [functionId, fn] = functionNamed(template, name);
      const ownLogGroup = referencedId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup) ?? '';
      // X-Ray's writes: test/infra/stack/dashboard.ts.
      const others = statementsOf(template, functionId).filter(
        (statement) => !statement.Action.some((action) => action.startsWith('dynamodb:') || action.startsWith('xray:')),
      );
      const poolId = [...resourcesOfType(template, 'AWS::Cognito::UserPool').keys()][0] ?? '';
      expect(others).toEqual([
        { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: [{ 'Fn::GetAtt': [ownLogGroup, 'Arn'] }] },
        ...(IDENTITY_ACCESS[name]
          ? [{ Effect: 'Allow', Action: [...IDENTITY_ACCESS[name]], Resource: [{ 'Fn::GetAtt': [poolId, 'Arn'] }] }]
          : []),
      ]);
    },
  );

  it("no role of the service's functions has a managed policy, a wildcard action or a table-wide DynamoDB grant beyond the ones above", () => {
    const { template } = synth(stage);
    const roles = new Set(FUNCTIONS.map((name) => referencedId(functionNamed(template, name)[1].Properties.Role)));
    for (const [id, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
      if (!roles.has(id)) continue;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('lambda.amazonaws.com');
    }
    const ours = [...resourcesOfType(template, 'AWS::IAM::Policy').values()].filter((policy) =>
      (policy.Properties.Roles as unknown[]).some((ref) => roles.has(referencedId(ref))),
    );
    const actions = ours.flatMap((policy) =>
      (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap(
        (statement) => statement.Action,
      ),
    );
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });
});

it('NodejsFunction bundles with lib/bundling.ts: minified CommonJS for node24 with source maps, the AWS SDK included', () => {
  expect(NODEJS_BUNDLING).toMatchObject({
    format: OutputFormat.CJS,
    target: 'node24',
    minify: true,
    sourceMap: true,
    externalModules: [],
    mainFields: ['module', 'main'],
    esbuildArgs: { '--tree-shaking': 'true' },
    forceDockerBundling: false,
  });
});

it("npm run logs finds every deployed function's log group and each API's access log in the stack by its logical id", () => {
  const groups = [...resourcesOfType(templateOf('dev'), 'AWS::Logs::LogGroup').keys()].map((logicalId) => ({
    logicalId,
    physicalId: `PetStore-dev-${logicalId}`,
    type: 'AWS::Logs::LogGroup',
  }));
  const sources = logSourcesOf(groups).map((source) => source.name);
  expect(sources.sort()).toEqual([...DEPLOYED_FUNCTIONS.map((fn) => fn.name), 'pets-api', 'messages-api', 'account-api'].sort());
});
