/**
 * What keeps one route, one client or one launch from taking a stage (docs/capacity.md), as deployed: the
 * writes' reserved concurrency, warm throughput of the tables and the status index, the front door's per-key
 * rate rule, and what each request writes to CloudWatch Logs.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { ACCESS_LOG_FIELDS } from '#lib/petstore-http-api';
import { stageConfig } from '#lib/stage-config';
import { STAGES, type StageName } from '#shared/stages';
import { PETS_STATUS_INDEX } from '#shared/tables';
import type { FunctionName } from '#shared/table-access';
import { functionNamed, resourcesOfType, synth, tableId, variant, type Resource, type VariantName } from '../support/synth';

const FUNCTIONS_WITHOUT_RESERVATION: readonly FunctionName[] = ['listPets', 'getPet', 'authorizer', 'notFound', 'preflight'];

/** rate × 400 ms (the fail-fast bound and the request's own work), written out: createPet, submitMessage. */
const RESERVED: Record<StageName, Partial<Record<FunctionName, number>>> = {
  dev: {},
  staging: { createPet: 20, submitMessage: 20 },
  prod: { createPet: 400, submitMessage: 200 },
};

const reservedOf = (template: Template, name: FunctionName): unknown =>
  functionNamed(template, name)[1].Properties.ReservedConcurrentExecutions;

describe.each(STAGES)('%s stage: one route cannot starve the others', (stage) => {
  it('createPet and submitMessage get reserved concurrency sized from their route throttle (none in dev)', () => {
    const { template } = synth(stage);
    expect(reservedOf(template, 'createPet')).toBe(RESERVED[stage].createPet);
    expect(reservedOf(template, 'submitMessage')).toBe(RESERVED[stage].submitMessage);
  });

  it.each(FUNCTIONS_WITHOUT_RESERVATION)('%s keeps the shared pool', (name) => {
    expect(reservedOf(synth(stage).template, name)).toBeUndefined();
  });

  it('the reservations leave Lambda’s required 100 unreserved in an account at the default 1,000', () => {
    const total = Object.values(RESERVED[stage]).reduce((sum, value) => sum + value, 0);
    expect(1_000 - total).toBeGreaterThanOrEqual(100);
  });
});

describe('reserved concurrency follows the throttle the context sets', () => {
  it('-c createPetRateLimit=900 reserves 360 executions for createPet in prod', () => {
    expect(reservedOf(variant('prodWithOptions').template, 'createPet')).toBe(360);
  });
});

describe.each(STAGES)('%s stage: Lambda’s own records per invocation', (stage) => {
  it.each<FunctionName>(['createPet', 'authorizer', 'getPet'])(
    '%s logs JSON with system level WARN outside dev, so no START/REPORT record is ingested per invocation',
    (name) => {
      const logging = functionNamed(synth(stage).template, name)[1].Properties.LoggingConfig as Record<string, unknown>;
      expect(logging).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: stage === 'dev' ? 'INFO' : 'WARN' });
    },
  );
});

describe('warm throughput', () => {
  const table = (template: Template, name: 'pets' | 'messages'): Resource =>
    resourcesOfType(template, 'AWS::DynamoDB::Table').get(tableId(template, name)) as Resource;
  const statusIndex = (pets: Resource) =>
    (pets.Properties.GlobalSecondaryIndexes as { IndexName: string; WarmThroughput?: unknown }[]).find(
      (index) => index.IndexName === PETS_STATUS_INDEX,
    );

  it.each(STAGES)('%s pre-warms nothing by default: its throttles stay below what a new on-demand table takes', (stage) => {
    const { template } = synth(stage);
    for (const resource of resourcesOfType(template, 'AWS::DynamoDB::Table').values()) {
      expect(resource.Properties.WarmThroughput).toBeUndefined();
    }
  });

  it('-c petsWarmReads/petsWarmWrites pre-warm the pets table and its status index alike, -c messagesWarmWrites the messages table', () => {
    const { template } = variant('prodWithOptions');
    const pets = table(template, 'pets');
    const warm = { ReadUnitsPerSecond: 30_000, WriteUnitsPerSecond: 10_000 };
    expect(pets.Properties.WarmThroughput).toEqual(warm);
    expect(statusIndex(pets)?.WarmThroughput).toEqual(warm);
    expect(table(template, 'messages').Properties.WarmThroughput).toEqual({ WriteUnitsPerSecond: 5_000 });
  });

  it('refuses values a new on-demand table already takes', () => {
    expect(() => stageConfig('staging', { petsWarmWrites: '3000' })).toThrow(
      /petsWarmWrites: "3000" is not a whole number of at least 4,000/,
    );
    expect(() => stageConfig('staging', { petsWarmReads: '500' })).toThrow(/at least 12,000 read units/);
  });
});

describe('the front door holds one API key to a rate, from however many addresses', () => {
  const webAcl = (name: VariantName) => {
    const { edge } = variant(name);
    const [acl] = [...resourcesOfType(edge?.template as Template, 'AWS::WAFv2::WebACL').values()];
    return acl?.Properties as { Rules: Record<string, unknown>[] };
  };

  it('a rate rule aggregated on the Authorization header, spelled any way, blocks with 429 after the per-IP rule', () => {
    const rule = webAcl('prodAsCommitted').Rules.find((candidate) => candidate.Name === 'RateLimitPerApiKey');
    expect(rule).toMatchObject({
      Priority: 1,
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'CUSTOM_KEYS',
          CustomKeys: [
            {
              Header: {
                Name: 'authorization',
                TextTransformations: [
                  { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
                  { Priority: 1, Type: 'LOWERCASE' },
                ],
              },
            },
          ],
          Limit: 6_000,
          EvaluationWindowSec: 60,
        },
      },
      Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'too-many-requests' } } },
    });
  });

  it('-c frontDoorKeyRateLimit sets the per-key limit; on the command line of a stage without the front door it is refused', () => {
    const rule = webAcl('frontDoorWithZone').Rules.find((candidate) => candidate.Name === 'RateLimitPerApiKey');
    expect(rule).toMatchObject({ Statement: { RateBasedStatement: { Limit: 12_000 } } });
    expect(() => stageConfig('staging', { frontDoorKeyRateLimit: '100' })).toThrow(/frontDoorKeyRateLimit: given without frontDoor/);
  });
});

describe('what one request writes to CloudWatch Logs', () => {
  /** The access-log line before, for docs/capacity.md's figures: two fields that repeated others, the protocol and the length. */
  const BEFORE = {
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    ...ACCESS_LOG_FIELDS,
  };
  /** A keyed getPet as API Gateway fills the variables in (`-` where a variable has no value). */
  const VALUES: Record<string, string> = {
    '$context.requestId': 'Jx3kPhY0oAMEVxw=',
    '$context.requestTime': '12/Mar/2026:10:15:30 +0000',
    '$context.identity.sourceIp': '203.0.113.10',
    '$context.identity.userAgent': 'petstore-sdk/1.4.0 node/24.3.0',
    '$context.httpMethod': 'GET',
    '$context.path': '/v1/pets/3201934721843',
    '$context.routeKey': 'GET /v1/pets/{petId}',
    '$context.protocol': 'HTTP/1.1',
    '$context.status': '200',
    '$context.responseLength': '87',
    '$context.responseLatency': '24',
    '$context.integrationStatus': '200',
    '$context.integrationLatency': '19',
    '$context.integrationErrorMessage': '-',
    '$context.error.message': '-',
    '$context.authorizer.error': '-',
    '$context.authorizer.keyId': 'key_5f2c9a1e7b3d4c60',
    '$context.authorizer.reason': '-',
  };
  const line = (fields: Record<string, string>): number =>
    Buffer.byteLength(JSON.stringify(Object.fromEntries(Object.entries(fields).map(([name, variable]) => [name, VALUES[variable]]))));
  /** Lambda's JSON platform.start and platform.report records for one invocation (no tracing). */
  const PLATFORM_RECORDS_BYTES =
    Buffer.byteLength(
      JSON.stringify({
        time: '2026-03-12T10:15:30.101Z',
        type: 'platform.start',
        record: { requestId: '6d68ca91-49c9-448d-89b8-7ca3e6dc66aa', version: '$LATEST' },
      }),
    ) +
    Buffer.byteLength(
      JSON.stringify({
        time: '2026-03-12T10:15:30.119Z',
        type: 'platform.report',
        record: {
          requestId: '6d68ca91-49c9-448d-89b8-7ca3e6dc66aa',
          metrics: { durationMs: 17.52, billedDurationMs: 18, memorySizeMB: 512, maxMemoryUsedMB: 91 },
          status: 'success',
        },
      }),
    );

  it('no access-log field repeats another: one variable each, and neither the method (in routeKey) nor the time (the event’s own)', () => {
    const variables = Object.values(ACCESS_LOG_FIELDS);
    expect(new Set(variables).size).toBe(variables.length);
    expect(variables).not.toContain('$context.httpMethod');
    expect(variables).not.toContain('$context.requestTime');
    // Nor the protocol or the body's length: nothing an operator acts on, 44 bytes of every request.
    expect(variables).not.toContain('$context.protocol');
    expect(variables).not.toContain('$context.responseLength');
  });

  it('a request writes 1,223 bytes before and 367 after: a shorter access-log line, and no platform records from either invocation', () => {
    const before = line(BEFORE) + 2 * PLATFORM_RECORDS_BYTES;
    const after = line(ACCESS_LOG_FIELDS);
    expect({ before, after }).toEqual({ before: 1_223, after: 367 });
  });
});
