/**
 * The delays the functions' DynamoDB client waits between attempts, with the random source pinned to its
 * extremes: a throttled call waits at most DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS in all (the SDK's default
 * backoff starts from 1 s), a failed condition is never retried. Attempt counts against a throttling
 * DynamoDB are test/faults/dynamodb-throttled.test.ts's.
 */
import type { RetryErrorType, RetryStrategyV2 } from '@smithy/types';
import { createDynamoDbClient, DYNAMODB_MAX_ATTEMPTS, DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS } from '#data/dynamodb-client';

async function delaysOf(errorType: RetryErrorType, random: number): Promise<number[]> {
  const client = createDynamoDbClient('http://127.0.0.1:9', 'us-east-1');
  const strategy = await (client.config.retryStrategy as () => Promise<RetryStrategyV2>)();
  client.destroy();
  const spy = jest.spyOn(Math, 'random').mockReturnValue(random);
  try {
    const delays: number[] = [];
    let token = await strategy.acquireInitialRetryToken('dynamodb');
    for (;;) {
      try {
        token = await strategy.refreshRetryTokenForRetry(token, { errorType });
      } catch {
        return delays;
      }
      delays.push(token.getRetryDelay());
    }
  } finally {
    spy.mockRestore();
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

test('a throttled call is retried until its last attempt, waiting at most the throttling budget in all', async () => {
  const longest = await delaysOf('THROTTLING', 0.999_999);
  expect(longest).toHaveLength(DYNAMODB_MAX_ATTEMPTS - 1);
  expect(sum(longest)).toBeLessThanOrEqual(DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS);
  expect(sum(longest)).toBeGreaterThan(DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS * 0.99);
  expect(await delaysOf('THROTTLING', 0)).toEqual([0, 0]);
});

test('a transient failure is retried with shorter delays than throttling', async () => {
  const longest = await delaysOf('TRANSIENT', 0.999_999);
  expect(longest).toHaveLength(DYNAMODB_MAX_ATTEMPTS - 1);
  expect(sum(longest)).toBeLessThan(DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS);
});

test('a client error (a failed condition) is never retried', async () => {
  expect(await delaysOf('CLIENT_ERROR', 0.5)).toEqual([]);
});
