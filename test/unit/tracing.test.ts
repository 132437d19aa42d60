/**
 * X-Ray without the X-Ray SDK (lambda/runtime/tracing.ts): a sampled invocation sends, to the daemon Lambda
 * runs, the operation's subsegment annotated with both request ids and, nested under it, one subsegment per SDK
 * call; an unsampled one, or a stage that turned tracing off, sends nothing. A UDP socket stands in for the daemon.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { Context } from 'aws-lambda';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '#data/dynamodb-client';
import { observed } from '#runtime/observe';
import { observeAwsClient } from '#runtime/tracing';
import { freshTables } from '../support/local-dynamodb';

const TRACE_ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const FACADE_ID = '53995c3f42cd8ad8';
const saved = { ...process.env };
let daemon: Socket;
const received: Record<string, unknown>[] = [];
const waiters = new Set<{ readonly count: number; readonly resolve: () => void }>();

let handler: (event: { requestContext: { requestId: string } }, context?: Context) => Promise<unknown>;

beforeAll(async () => {
  // Its environment: the region and credentials the local DynamoDB takes.
  const { endpoint } = await freshTables();
  const client = observeAwsClient(createDynamoDbClient(endpoint), 'DynamoDB');
  handler = observed(
    'getPet',
    async () => client.send(new ListTablesCommand({ Limit: 1 })),
    () => ({ outcome: 'success' }),
  );
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    const [header, body] = message.toString().split('\n');
    expect(JSON.parse(header ?? '')).toEqual({ format: 'json', version: 1 });
    received.push(JSON.parse(body ?? '') as Record<string, unknown>);
    for (const waiter of [...waiters]) if (received.length >= waiter.count) waiter.resolve();
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
    AWS_LAMBDA_FUNCTION_NAME: 'PetStore-test-getPet',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    // What a stage with tracing sets (the local environment turns it off: no daemon listens there).
    POWERTOOLS_TRACE_ENABLED: 'true',
  });
});
afterAll(() => {
  process.env = saved;
  daemon.close();
});
beforeEach(() => {
  received.length = 0;
});

const invoke = (awsRequestId = 'lambda-request-1') =>
  handler({ requestContext: { requestId: 'gw-request-1' } }, { awsRequestId } as Context);

/** Resolves once the daemon has received `count` segments (the test's timeout bounds the wait). */
function settled(count: number): Promise<void> {
  if (received.length >= count) return Promise.resolve();
  return new Promise((resolve) => {
    const waiter = {
      count,
      resolve: () => {
        waiters.delete(waiter);
        resolve();
      },
    };
    waiters.add(waiter);
  });
}

test('a sampled invocation sends its operation subsegment, annotated with both request ids, and its DynamoDB call nested under it', async () => {
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${FACADE_ID};Sampled=1`;
  await invoke();
  await settled(2);
  const operation = received.find((segment) => segment.name === '## getPet');
  const call = received.find((segment) => segment.name === 'DynamoDB');
  expect(operation).toMatchObject({
    type: 'subsegment',
    trace_id: TRACE_ROOT,
    parent_id: FACADE_ID,
    annotations: { operation: 'getPet', outcome: 'success', apigwRequestId: 'gw-request-1', awsRequestId: 'lambda-request-1' },
  });
  expect(call).toMatchObject({
    type: 'subsegment',
    namespace: 'aws',
    trace_id: TRACE_ROOT,
    parent_id: operation?.id,
    aws: { operation: 'ListTables', retries: 0 },
    http: { response: { status: 200 } },
  });
  expect(call?.end_time as number).toBeGreaterThanOrEqual(call?.start_time as number);
});

test('an unsampled invocation, or a stage with tracing off, sends nothing', async () => {
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${FACADE_ID};Sampled=0`;
  await invoke();
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${FACADE_ID};Sampled=1`;
  process.env.POWERTOOLS_TRACE_ENABLED = 'false';
  await invoke();
  process.env.POWERTOOLS_TRACE_ENABLED = 'true';
  // A sampled invocation after them: once its two segments arrive, anything the others sent would have too.
  await invoke('marker');
  await settled(2);
  const operations = received.filter((segment) => segment.name === '## getPet');
  expect(operations.map((segment) => (segment.annotations as { awsRequestId?: string }).awsRequestId)).toEqual(['marker']);
  expect(received).toHaveLength(2);
});
