import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RetryErrorType, RetryStrategyV2, RetryToken } from '@smithy/types';
import { observeAwsClient } from '#runtime/tracing';
import { DeadlineHttpHandler } from './deadline-http-handler';
import { inLambda, LAMBDA_SDK_SETTINGS } from './lambda-sdk-settings';

/** A slow, unreachable or throttling DynamoDB fails a request, never holds it: 3 bounded attempts, none past the deadline. */
export const DYNAMODB_MAX_ATTEMPTS = 3;
const DEFAULT_CONNECTION_TIMEOUT_MS = 1_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;

/** The SDK's 1 s base would pile held functions up on a throttled hot key; longer waits are the client's (the 503). */
const THROTTLING_BACKOFF_BASE_MS = 100;
/** The most a throttled call waits between its attempts, in all (100 + 200 ms). */
export const DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS = THROTTLING_BACKOFF_BASE_MS * (2 ** (DYNAMODB_MAX_ATTEMPTS - 1) - 1);
/** What is retried, with which backoff base (transient: the SDK's DynamoDB default); never a client error. */
const BACKOFF_BASE_MS: Partial<Record<RetryErrorType, number>> = { THROTTLING: THROTTLING_BACKOFF_BASE_MS, TRANSIENT: 25 };

const retryToken = (retryCount: number, delayMs: number): RetryToken => ({
  getRetryCount: () => retryCount,
  getRetryDelay: () => delayMs,
});

/** Our backoff, without a retry quota: retries are bounded per call, and a drained quota would fail the next throttle. */
const dynamoDbRetryStrategy: RetryStrategyV2 = {
  acquireInitialRetryToken: () => Promise.resolve(retryToken(0, 0)),
  refreshRetryTokenForRetry: (token, { errorType }) => {
    const retries = token.getRetryCount();
    const base = BACKOFF_BASE_MS[errorType];
    // The middleware then throws the call's own error, not this one.
    if (base === undefined || retries + 1 >= DYNAMODB_MAX_ATTEMPTS) return Promise.reject(new Error('no retry left'));
    return Promise.resolve(retryToken(retries + 1, Math.floor(Math.random() * base * 2 ** retries)));
  },
  recordSuccess: () => undefined,
};

const positiveNumberFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** In Lambda only, DynamoDB's own lookups fixed too (./lambda-sdk-settings.ts). */
const LAMBDA_SETTINGS = {
  ...LAMBDA_SDK_SETTINGS,
  accountIdEndpointMode: 'preferred',
  endpointDiscoveryEnabled: false,
} as const satisfies Partial<DynamoDBClientConfig>;

export function createDynamoDbClient(endpoint = process.env.DYNAMODB_ENDPOINT, region?: string): DynamoDBClient {
  const chosenRegion = region ?? process.env.AWS_REGION;
  return new DynamoDBClient({
    ...(inLambda() ? LAMBDA_SETTINGS : {}),
    // Lambda always sets AWS_REGION; elsewhere (the keys CLI) the SDK's own chain finds the profile's.
    ...(chosenRegion ? { region: chosenRegion } : {}),
    // Only set locally (DynamoDB Local / dynalite); in AWS the regional endpoint is used.
    ...(endpoint ? { endpoint } : {}),
    // Only for the `amz-sdk-request` header; the strategy decides.
    maxAttempts: DYNAMODB_MAX_ATTEMPTS,
    retryStrategy: dynamoDbRetryStrategy,
    requestHandler: new DeadlineHttpHandler('DynamoDB', {
      connectionMs: positiveNumberFromEnv('DYNAMODB_CONNECTION_TIMEOUT_MS', DEFAULT_CONNECTION_TIMEOUT_MS),
      requestMs: positiveNumberFromEnv('DYNAMODB_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    }),
  });
}

const toDocumentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

export function createDocumentClient(endpoint = process.env.DYNAMODB_ENDPOINT, region?: string): DynamoDBDocumentClient {
  return toDocumentClient(createDynamoDbClient(endpoint, region));
}

let sharedClient: DynamoDBClient | undefined;
let sharedDocumentClient: DynamoDBDocumentClient | undefined;

/** One client per process, created on first use and reused across invocations (keep-alive). */
export function dynamoDbClient(): DynamoDBClient {
  // Each call a subsegment of its request's trace and, at DEBUG, a line of its request (lambda/runtime/tracing.ts).
  sharedClient ??= observeAwsClient(createDynamoDbClient(), 'DynamoDB');
  return sharedClient;
}

export function documentClient(): DynamoDBDocumentClient {
  sharedDocumentClient ??= toDocumentClient(dynamoDbClient());
  return sharedDocumentClient;
}
