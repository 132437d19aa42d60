import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { tableName } from '../config';
import { dynamoDbClient } from '../dynamodb-client';
import { invalidRequest } from '../errors';
import type { HttpResponse } from '../http-response';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS } from '../operation-spec';

const OWNS_RECORD = 'petstore.idempotency.ownsRecord';
const ENGAGED = 'petstore.idempotency.engaged';

/**
 * `Idempotency-Key` (optional): the same key and body from the same account within the window gets the
 * original answer and stores nothing new. The key expression yields null without the header, which
 * makes Powertools skip idempotency: the spec's behaviour is unchanged for clients that don't send one.
 */
const config = new IdempotencyConfig({
  eventKeyJmesPath: `headers."idempotency-key" && join(':', [requestContext.authorizer.lambda.accountId, headers."idempotency-key"])`,
  payloadValidationJmesPath: 'body',
  expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  responseHook: (response) => {
    const replay = response as unknown as HttpResponse;
    return { ...replay, headers: { ...replay.headers, 'idempotent-replayed': 'true' } } as unknown as typeof response;
  },
});

let store: DynamoDBPersistenceLayer | undefined;

/**
 * Powertools' idempotency middleware, with two guards of our own: the header is checked first, and
 * its onError runs only when this request holds the in-progress record — otherwise a duplicate
 * refused as "in progress" would delete the record of the request that is actually running.
 */
export const idempotentWrites = (operationId: string): MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, Context, Record<string, unknown>> => {
  store ??= new DynamoDBPersistenceLayer({ tableName: tableName('idempotency'), awsSdkV3Client: dynamoDbClient() });
  // Keys are per operation: Powertools would otherwise prefix them with the Lambda function name,
  // which changes with every deployment and is the same for all operations in the local server.
  const powertools = makeHandlerIdempotent({ persistenceStore: store, config, keyPrefix: operationId });
  return {
    before: async (request) => {
      const key = request.event.headers['idempotency-key'];
      // Without the header Powertools would evaluate the key expression, get null and skip: skipping
      // it here is the same outcome without the JMESPath work on every plain create (bench/, part 2).
      request.internal[ENGAGED] = key !== undefined;
      if (key === undefined) return undefined;
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw invalidRequest("header 'Idempotency-Key' must be 1 to 255 visible ASCII characters");
      }
      const replay: unknown = await powertools.before?.(request as never);
      request.internal[OWNS_RECORD] = replay === undefined;
      return replay as HttpResponse | undefined;
    },
    after: async (request) => {
      if (request.internal[ENGAGED] === true) await powertools.after?.(request as never);
    },
    onError: async (request) => {
      if (request.internal[OWNS_RECORD] === true) await powertools.onError?.(request as never);
    },
  };
};

/** What http-handler.ts takes from the creating operations (DESIGN: read handlers never load this module). */
export type IdempotentWrites = typeof idempotentWrites;
