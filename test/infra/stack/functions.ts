import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { NODEJS_BUNDLING } from '../../../lib/petstore-function';
import { STAGES, type StageName } from '../../../lib/stages';
import type { FunctionName } from '../../../lib/table-access';
import {
  CORS_CONTEXT,
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

const FUNCTIONS: readonly FunctionName[] = ['listPets', 'createPet', 'getPet', 'submitMessage', 'authorizer', 'notFound', 'preflight'];

/** The preflight function exists only where a stage configures CORS; every other function everywhere. */
const templateOf = (stage: StageName, name: FunctionName) => synth(stage, name === 'preflight' ? CORS_CONTEXT : {}).template;

/** Which table names each function is told: the tables it touches, nothing else. */
const TABLE_ENV: Record<FunctionName, Partial<Record<TableName, string>>> = {
  listPets: { pets: 'PETS_TABLE_NAME' },
  createPet: { pets: 'PETS_TABLE_NAME', idempotency: 'IDEMPOTENCY_TABLE_NAME' },
  getPet: { pets: 'PETS_TABLE_NAME' },
  submitMessage: { messages: 'MESSAGES_TABLE_NAME', idempotency: 'IDEMPOTENCY_TABLE_NAME' },
  authorizer: { apiKeys: 'API_KEYS_TABLE_NAME' },
  notFound: {},
  preflight: {},
};

const LOG_SETTINGS = {
  dev: { level: 'DEBUG', retentionDays: 7, logDeletionPolicy: 'Delete' },
  staging: { level: 'INFO', retentionDays: 30, logDeletionPolicy: 'Delete' },
  prod: { level: 'INFO', retentionDays: 180, logDeletionPolicy: 'Retain' },
} as const;

describe.each(STAGES)('%s stage functions', (stage) => {
  it.each(FUNCTIONS)('%s runs nodejs24.x on arm64 with 512 MB, a 10 s timeout and no reserved concurrency', (name) => {
    const [, fn] = functionNamed(templateOf(stage, name), name);
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 10,
      Handler: 'index.handler',
    });
    expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it.each(FUNCTIONS)('%s gets only its table names and logging settings in its environment', (name) => {
    const template = templateOf(stage, name);
    const [, fn] = functionNamed(template, name);
    const tableNames = Object.fromEntries(
      Object.entries(TABLE_ENV[name]).map(([table, envVar]) => [envVar, { Ref: tableId(template, table as TableName) }]),
    );
    expect((fn.Properties.Environment as { Variables: unknown }).Variables).toEqual({
      ...tableNames,
      POWERTOOLS_SERVICE_NAME: 'petstore',
      POWERTOOLS_LOG_LEVEL: LOG_SETTINGS[stage].level,
    });
  });

  it.each(FUNCTIONS)('%s logs JSON at the stage level into its own log group with the stage retention', (name) => {
    const template = templateOf(stage, name);
    const [, fn] = functionNamed(template, name);
    const logging = fn.Properties.LoggingConfig as { LogFormat: string; ApplicationLogLevel: string; LogGroup: unknown };
    expect(logging).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: LOG_SETTINGS[stage].level });
    const logGroup = resourcesOfType(template, 'AWS::Logs::LogGroup').get(referencedId(logging.LogGroup) ?? '');
    expect(logGroup?.Properties.RetentionInDays).toBe(LOG_SETTINGS[stage].retentionDays);
    expect(logGroup?.DeletionPolicy).toBe(LOG_SETTINGS[stage].logDeletionPolicy);
  });
});

describe.each(STAGES)('%s stage permissions', (stage) => {
  /** Exactly the DynamoDB calls each function makes (lambda/shared/repositories, write-once.ts for idempotency). */
  const expectedDynamoDbGrants = (name: FunctionName): string[] => {
    const template = templateOf(stage, name);
    const pets = tableId(template, 'pets');
    const idempotency = [{ Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: [tableArn(tableId(template, 'idempotency'))] }];
    const statements: Record<FunctionName, { Action: string[]; Resource: unknown[] }[]> = {
      listPets: [
        { Action: ['dynamodb:Query'], Resource: [indexArn(pets, 'status-id-index')] },
        { Action: ['dynamodb:Scan'], Resource: [tableArn(pets)] },
      ],
      // The conditional put is read back when its condition fails (put-if-absent.ts).
      createPet: [{ Action: ['dynamodb:PutItem', 'dynamodb:GetItem'], Resource: [tableArn(pets)] }, ...idempotency],
      getPet: [{ Action: ['dynamodb:GetItem'], Resource: [tableArn(pets)] }],
      submitMessage: [
        { Action: ['dynamodb:PutItem', 'dynamodb:GetItem'], Resource: [tableArn(tableId(template, 'messages'))] },
        ...idempotency,
      ],
      authorizer: [{ Action: ['dynamodb:GetItem'], Resource: [tableArn(tableId(template, 'apiKeys'))] }],
      notFound: [],
      preflight: [],
    };
    return grants(statements[name]);
  };

  it.each(FUNCTIONS)('%s may call exactly its DynamoDB actions on exactly its tables or index', (name) => {
    const template = templateOf(stage, name);
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

  it.each(FUNCTIONS)('%s may write only to its own log group and do nothing else', (name) => {
    const template = templateOf(stage, name);
    const [functionId, fn] = functionNamed(template, name);
    const ownLogGroup = referencedId((fn.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup) ?? '';
    const others = statementsOf(template, functionId).filter(
      (statement) => !statement.Action.some((action) => action.startsWith('dynamodb:')),
    );
    expect(others).toEqual([
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: [{ 'Fn::GetAtt': [ownLogGroup, 'Arn'] }] },
    ]);
  });

  it('no role has a managed policy, a wildcard action or a table-wide DynamoDB grant beyond the ones above', () => {
    const { template } = synth(stage);
    for (const role of resourcesOfType(template, 'AWS::IAM::Role').values()) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('lambda.amazonaws.com');
    }
    const actions = [...resourcesOfType(template, 'AWS::IAM::Policy').values()].flatMap((policy) =>
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
