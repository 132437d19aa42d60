/**
 * The functions' AWS clients within their request's deadline (lambda/data/deadline-http-handler.ts), against a
 * DynamoDB that takes every request and never answers: an attempt gets at most the time left, none starts
 * with too little left, and the call fails with what the error middleware answers 503 with Retry-After. Without
 * the deadline, each of the 3 attempts would wait out its own 2 s timeout.
 */
import { createServer } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#data/dynamodb-client';
import { classify } from '#http/middleware/map-errors';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#local/engine/dynamodb-engine';
import { inScope } from '#runtime/request-scope';
import { listenOnLoopback, type Listening } from '../support/loopback-server';

let attempts = 0;
let hung: Listening;
let db: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  hung = await listenOnLoopback(
    createServer(() => {
      attempts++;
    }),
  );
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  db = createDocumentClient(hung.origin, LOCAL_REGION);
});
beforeEach(() => {
  attempts = 0;
});
afterAll(async () => {
  db.destroy();
  await hung.close();
});

/** A read made inside a request whose deadline is `ms` away, and the error it fails with. */
async function readWithin(ms: number): Promise<unknown> {
  const scope = {
    operation: 'getPet',
    awsRequestId: 'test',
    apigwRequestId: undefined,
    coldStart: false,
    startedAt: 0,
    trace: undefined,
    counts: [],
  };
  try {
    await inScope({ ...scope, deadline: Date.now() + ms }, () => db.send(new GetCommand({ TableName: 'pets', Key: { id: 1 } })));
  } catch (error) {
    return error;
  }
  throw new Error('the read answered');
}

test('with too little time left before the deadline, no attempt is sent, and the call fails as 503 with Retry-After', async () => {
  const error = await readWithin(10);
  expect(attempts).toBe(0);
  expect(error).toMatchObject({ name: 'DeadlineReachedError' });
  expect(classify(error).apiError).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'retry-after': '1' } });
});

test('an attempt that hangs is cut at the deadline, and no retry starts after it', async () => {
  const error = await readWithin(1_000);
  expect(attempts).toBe(1);
  expect(error).toMatchObject({ name: 'DeadlineReachedError' });
  expect(classify(error).apiError).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
});
