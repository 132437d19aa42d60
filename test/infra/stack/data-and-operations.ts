import { AwsSolutionsChecks } from 'cdk-nag';
import { stageConfig } from '#lib/stage-config';
import { EXCESS_AT_LEAST, JUDGED_AT_LEAST } from '#lib/canary-judgement';
import { parseStage, STAGES } from '#shared/stages';
import {
  apiNamed,
  functionNamed,
  referencedId,
  resourcesOfType,
  synth,
  tableId,
  variant,
  withOptions,
  type Resource,
  type TableName,
} from '../support/synth';

const DATA_SAFETY = {
  dev: { deletionPolicy: 'Delete', deletionProtection: false },
  staging: { deletionPolicy: 'Retain', deletionProtection: false },
  prod: { deletionPolicy: 'Retain', deletionProtection: true },
} as const;

const keySchema = (hash: string, range?: string) => [
  { AttributeName: hash, KeyType: 'HASH' },
  ...(range ? [{ AttributeName: range, KeyType: 'RANGE' }] : []),
];

describe.each(STAGES)('%s stage tables', (stage) => {
  const table = (name: TableName): Resource => {
    const { template } = synth(stage);
    return resourcesOfType(template, 'AWS::DynamoDB::Table').get(tableId(template, name)) as Resource;
  };

  it('pets are keyed by numeric id and filtered by status through a status/id index holding whole pets', () => {
    const { Properties } = table('pets');
    expect(Properties.KeySchema).toEqual(keySchema('id'));
    expect(Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'id', AttributeType: 'N' },
        { AttributeName: 'statusShard', AttributeType: 'S' },
      ]),
    );
    // Write-sharded (`available#7`): one status key per index partition would cap its creates at 1,000/s.
    expect(Properties.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'status-shard-id-index', KeySchema: keySchema('statusShard', 'id'), Projection: { ProjectionType: 'ALL' } },
    ]);
  });

  it('idempotency records are keyed by string id and expire through TTL on `expiration`', () => {
    expect(table('idempotency').Properties).toMatchObject({
      KeySchema: keySchema('id'),
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
    });
  });

  it('messages are keyed by string id without indexes; API keys by the key hash, listed per account through an account/listedUntil index, revoked ones removed by TTL', () => {
    expect(table('messages').Properties).toMatchObject({
      KeySchema: keySchema('id'),
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    });
    expect(table('apiKeys').Properties).toMatchObject({ KeySchema: keySchema('keyHash') });
    expect(table('apiKeys').Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'keyHash', AttributeType: 'S' },
        { AttributeName: 'accountId', AttributeType: 'S' },
        { AttributeName: 'listedUntil', AttributeType: 'S' },
      ]),
    );
    expect(table('messages').Properties.GlobalSecondaryIndexes).toBeUndefined();
    expect(table('apiKeys').Properties.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'account-listed-index', KeySchema: keySchema('accountId', 'listedUntil'), Projection: { ProjectionType: 'ALL' } },
    ]);
    expect(table('apiKeys').Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });

  it('accounts (the active-key cap) are keyed by account id', () => {
    expect(table('accounts').Properties).toMatchObject({
      KeySchema: keySchema('accountId'),
      AttributeDefinitions: [{ AttributeName: 'accountId', AttributeType: 'S' }],
    });
  });

  it('every table bills on demand and has point-in-time recovery', () => {
    const tables = [...resourcesOfType(synth(stage).template, 'AWS::DynamoDB::Table').values()];
    expect(tables).toHaveLength(5);
    for (const { Properties } of tables) {
      expect(Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      });
      expect(Properties.ProvisionedThroughput).toBeUndefined();
      // CloudFormation names them, so dev, staging and prod can share an account.
      expect(Properties.TableName).toBeUndefined();
    }
  });

  const safety = DATA_SAFETY[stage];
  it(`deleting the stack ${safety.deletionPolicy === 'Retain' ? 'keeps' : 'deletes'} every table, deletion protection ${safety.deletionProtection ? 'on' : 'off'}`, () => {
    for (const resource of resourcesOfType(synth(stage).template, 'AWS::DynamoDB::Table').values()) {
      expect(resource.DeletionPolicy).toBe(safety.deletionPolicy);
      expect(resource.UpdateReplacePolicy).toBe(safety.deletionPolicy);
      expect(resource.Properties.DeletionProtectionEnabled).toBe(safety.deletionProtection);
    }
  });
});

describe('tables across stages', () => {
  it('prod retains every table and turns on deletion protection', () => {
    const tables = [...resourcesOfType(synth('prod').template, 'AWS::DynamoDB::Table').values()];
    expect(tables.every((resource) => resource.DeletionPolicy === 'Retain' && resource.Properties.DeletionProtectionEnabled === true)).toBe(
      true,
    );
  });

  it('dev tables go away with the stack', () => {
    const tables = [...resourcesOfType(synth('dev').template, 'AWS::DynamoDB::Table').values()];
    expect(
      tables.every((resource) => resource.DeletionPolicy === 'Delete' && resource.Properties.DeletionProtectionEnabled === false),
    ).toBe(true);
  });
});

/** Per-period counts that alarm, per stage, written out here rather than read from lib/stage-config.ts. */
const SURGE_THRESHOLDS = {
  dev: { unauthorized: 1500, clientErrors: 3000, throttled: 100 },
  staging: { unauthorized: 1500, clientErrors: 3000, throttled: 10 },
  prod: { unauthorized: 3000, clientErrors: 6000, throttled: 10 },
} as const;

describe.each(STAGES)('%s stage alarms', (stage) => {
  const alarms = () => [...resourcesOfType(synth(stage).template, 'AWS::CloudWatch::Alarm').values()];
  const topicId = () => [...resourcesOfType(synth(stage).template, 'AWS::SNS::Topic').keys()][0];

  it('every alarm notifies one SNS topic, on alarm and on recovery, and no traffic is not an alarm but for the stage check', () => {
    expect(resourcesOfType(synth(stage).template, 'AWS::SNS::Topic').size).toBe(1);
    for (const { Properties } of alarms()) {
      expect(Properties.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(Properties.OKActions).toEqual([{ Ref: topicId() }]);
      const stageCheck = /No run of the stage check passed/.test(String(Properties.AlarmDescription));
      expect(Properties.TreatMissingData).toBe(stageCheck ? 'breaching' : 'notBreaching');
    }
  });

  it('each API has an alarm on its 5xx rate of the $default stage', () => {
    const { template } = synth(stage);
    for (const api of ['pets', 'messages', 'account'] as const) {
      const apiId = apiNamed(template, stage, api);
      const alarm = alarms().find(({ Properties }) => {
        const metrics = JSON.stringify(Properties.Metrics ?? []);
        return metrics.includes('"5xx"') && metrics.includes(`"${apiId}"`);
      });
      expect(alarm).toBeDefined();
      const metrics = alarm?.Properties.Metrics as { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
      // The canaries' minimum counts: one 503 at low traffic never fires it (test/infra/stack/canary-judgement.ts).
      expect(metrics.find((metric) => metric.Expression)?.Expression).toBe(
        `IF(requests >= ${JUDGED_AT_LEAST} AND errors >= ${EXCESS_AT_LEAST}, 100 * errors / requests, 0)`,
      );
      expect(
        metrics
          .map((metric) => metric.MetricStat?.Metric.MetricName)
          .filter(Boolean)
          .sort(),
      ).toEqual(['5xx', 'Count']);
      expect(alarm?.Properties.ComparisonOperator).toBe('GreaterThanThreshold');
    }
  });

  it.each([
    ['401', 'unauthorized'],
    ['429', 'throttled'],
  ] as const)('each API alarms on its %s answers, counted from its own access log', (status, kind) => {
    const { template } = synth(stage);
    const logGroupOf = new Map(
      [...resourcesOfType(template, 'AWS::ApiGatewayV2::Stage').values()].map(({ Properties }) => [
        referencedId(Properties.ApiId),
        referencedId((Properties.AccessLogSettings as { DestinationArn: unknown }).DestinationArn),
      ]),
    );
    const filters = [...resourcesOfType(template, 'AWS::Logs::MetricFilter').values()].filter(
      ({ Properties }) => Properties.FilterPattern === `{ $.status = "${status}" }`,
    );
    expect(filters.map(({ Properties }) => referencedId(Properties.LogGroupName)).sort()).toEqual(
      (['pets', 'messages', 'account'] as const).map((api) => logGroupOf.get(apiNamed(template, stage, api))).sort(),
    );
    for (const filter of filters) {
      const [transformation] = filter.Properties.MetricTransformations as {
        MetricName: string;
        MetricNamespace: string;
        MetricValue: string;
      }[];
      expect(transformation).toMatchObject({ MetricNamespace: `PetStore/${stage}`, MetricValue: '1' });
      const alarm = alarms().find(
        ({ Properties }) => Properties.MetricName === transformation?.MetricName && Properties.Namespace === `PetStore/${stage}`,
      );
      expect(alarm?.Properties).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        Threshold: SURGE_THRESHOLDS[stage][kind],
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it("each API alarms on a surge of 4xx answers of its $default stage (API Gateway's own metric)", () => {
    const { template } = synth(stage);
    for (const api of ['pets', 'messages'] as const) {
      const apiId = apiNamed(template, stage, api);
      const alarm = alarms().find(
        ({ Properties }) => Properties.MetricName === '4xx' && JSON.stringify(Properties.Dimensions).includes(`"${apiId}"`),
      );
      expect(alarm?.Properties).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        Statistic: 'Sum',
        Period: 300,
        Threshold: SURGE_THRESHOLDS[stage].clientErrors,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Dimensions: expect.arrayContaining([{ Name: 'Stage', Value: '$default' }]),
      });
    }
  });

  it('the authorizer failing as often as a canary verdict needs (3 times) raises an alarm outside dev: deploys roll back on it, never on one blip', () => {
    const { template } = synth(stage);
    const [authorizerId] = functionNamed(template, 'authorizer');
    const alarm = alarms().find(
      ({ Properties }) => Properties.MetricName === 'Errors' && JSON.stringify(Properties.Dimensions).includes(`"${authorizerId}"`),
    );
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm?.Properties.Threshold).toBe(stage === 'dev' ? 5 : EXCESS_AT_LEAST);
  });

  it('each table has a throttle alarm that also watches its indexes', () => {
    const { template } = synth(stage);
    for (const name of ['pets', 'messages', 'apiKeys', 'idempotency'] as const) {
      const id = tableId(template, name);
      const alarm = alarms().find(({ Properties }) => JSON.stringify(Properties.Metrics ?? []).includes(`"${id}"`));
      const metrics = JSON.stringify(alarm?.Properties.Metrics);
      expect(metrics).toContain('ReadThrottleEvents');
      expect(metrics).toContain('WriteThrottleEvents');
      if (name === 'pets') expect(metrics).toContain('status-shard-id-index');
    }
  });

  it("CloudWatch may publish to the topic only for this account's alarms, and only over TLS", () => {
    const [policy] = [...resourcesOfType(synth(stage).template, 'AWS::SNS::TopicPolicy').values()];
    const statements = (policy?.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
        }),
      ]),
    );
  });

  it('there is no email subscription unless alarmEmail is set', () => {
    expect(resourcesOfType(synth(stage).template, 'AWS::SNS::Subscription').size).toBe(0);
  });
});

it('-c alarmEmail and -c alarmHttpsEndpoint subscribe that address and that endpoint to the alarm topic', () => {
  const subscriptions = [...resourcesOfType(variant('prodWithOptions').template, 'AWS::SNS::Subscription').values()];
  expect(subscriptions.map(({ Properties }) => [Properties.Protocol, Properties.Endpoint]).sort()).toEqual([
    ['email', 'ops@example.com'],
    ['https', 'https://chat.example.com/hooks/petstore'],
  ]);
});

describe.each(STAGES)('%s stage outputs', (stage) => {
  it('name the base URLs (pets ending in /v1), the portal, the user pool and the tables, under the ids the keys CLI reads', () => {
    const { template } = synth(stage);
    const outputs = template.findOutputs('*') as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual([
      'AccountBaseUrl',
      'AccountsTableName',
      'ApiKeysTableName',
      'DashboardUrl',
      'MessagesBaseUrl',
      'MessagesTableName',
      'PetsBaseUrl',
      'PetsTableName',
      'PortalUrl',
      // staging and prod: the secret the operator puts the stage check's key into (docs/runbooks.md).
      ...(stage === 'dev' ? [] : ['StageCheckKeySecret']),
      'UserPoolClientId',
      'UserPoolId',
    ]);
    expect(outputs.AccountBaseUrl?.Value).toEqual({ 'Fn::GetAtt': [apiNamed(template, stage, 'account'), 'ApiEndpoint'] });
    expect(outputs.PetsBaseUrl?.Value).toEqual({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [apiNamed(template, stage, 'pets'), 'ApiEndpoint'] }, '/v1']],
    });
    expect(outputs.MessagesBaseUrl?.Value).toEqual({ 'Fn::GetAtt': [apiNamed(template, stage, 'messages'), 'ApiEndpoint'] });
    for (const name of ['PetsTableName', 'MessagesTableName', 'ApiKeysTableName']) {
      const id = referencedId(outputs[name]?.Value);
      expect(resourcesOfType(template, 'AWS::DynamoDB::Table').has(id ?? '')).toBe(true);
    }
  });
});

describe.each(STAGES)('%s stage cdk-nag', (stage) => {
  it.each([
    ['without options', synth],
    ['with CORS and its other options', withOptions],
  ] as const)('the AwsSolutions pack finds nothing %s, neither errors nor warnings', (_variant, synthesized) => {
    const { stack } = synthesized(stage);
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(
      report.violations.map(
        (violation) =>
          `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
      ),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });
});

describe('stage selection', () => {
  it('defaults to dev and refuses a stage it does not know', () => {
    expect(parseStage(undefined)).toBe('dev');
    expect(parseStage('prod')).toBe('prod');
    expect(() => parseStage('production')).toThrow(/unknown stage "production"/);
  });

  it("refuses prod while config/prod.json holds alarmEmail's placeholder; none opts out; dev and staging say none", () => {
    expect(() => stageConfig('prod', { sesFromEmail: 'cognito' })).toThrow(
      /^alarmEmail: config\/prod\.json still holds the placeholder "<.*>"; write the real value there, or give one for this deploy: -c alarmEmail=…$/,
    );
    expect(stageConfig('prod', { alarmEmail: 'none', sesFromEmail: 'cognito' }).alarmEmail).toBeUndefined();
    expect(stageConfig('prod', { alarmEmail: 'ops@example.com', sesFromEmail: 'cognito' }).alarmEmail).toBe('ops@example.com');
    expect(stageConfig('staging').alarmEmail).toBeUndefined();
    expect(stageConfig('dev', { alarmEmail: 'none' }).alarmEmail).toBeUndefined();
  });

  it('rejects a CORS origin with a path and an alarm email without @', () => {
    expect(() => stageConfig('dev', { corsOrigins: 'https://app.example.com/path' })).toThrow(/not an origin/);
    expect(() => stageConfig('dev', { alarmEmail: 'ops' })).toThrow(/not an email/);
    expect(stageConfig('dev', { corsOrigins: ['https://a.example'] }).corsOrigins).toEqual(['https://a.example']);
  });

  it.each(STAGES)('refuses corsOrigins=* in %s: every origin is named', (stage) => {
    const optOuts = { alarmEmail: 'none', sesFromEmail: 'cognito' };
    expect(() => stageConfig(stage, { ...optOuts, corsOrigins: '*' })).toThrow(/`\*` is not allowed/);
    expect(() => stageConfig(stage, { ...optOuts, corsOrigins: 'https://a.example,*' })).toThrow(/`\*` is not allowed/);
  });

  it('allows plain http only for localhost and only in dev', () => {
    expect(stageConfig('dev', { corsOrigins: 'http://localhost:5173' }).corsOrigins).toEqual(['http://localhost:5173']);
    expect(() => stageConfig('dev', { corsOrigins: 'http://app.example.com' })).toThrow(/plain http/);
    for (const stage of ['staging', 'prod'] as const) {
      const [alarmEmail, sesFromEmail] = ['none', 'cognito'];
      expect(() => stageConfig(stage, { alarmEmail, sesFromEmail, corsOrigins: 'http://localhost:5173' })).toThrow(/plain http/);
      expect(stageConfig(stage, { alarmEmail, sesFromEmail, corsOrigins: 'https://app.example.com' }).corsOrigins).toEqual([
        'https://app.example.com',
      ]);
    }
  });
});
