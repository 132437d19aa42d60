import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RetryErrorType, RetryStrategyV2, RetryToken } from '@smithy/types';
import { SERVICE_NAME } from '#shared/function-settings';
import { observeAwsClient } from '#runtime/tracing';
import { DeadlineHttpHandler } from './deadline-http-handler';

/**
 * Timeouts and retries are explicit so a slow, unreachable or throttling DynamoDB fails a request instead of
 * holding it: at most 3 attempts of at most DYNAMODB_REQUEST_TIMEOUT_MS each, with exponential backoff and full
 * jitter between them, and none past the request's deadline (deadline-http-handler.ts).
 */
export const DYNAMODB_MAX_ATTEMPTS = 3;
const DEFAULT_CONNECTION_TIMEOUT_MS = 1_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;

/**
 * The SDK backs a throttled call off from a 1 s base (0–1 s, then 0–2 s): each throttled request would
 * hold its function for 1.5 s on average, up to 3 s, and under a throttled hot key those held
 * functions pile up to the account's concurrency. A throttled answer comes back in milliseconds, so
 * waiting is all that time is; a short retry still rides out a momentary throttle, and a longer one
 * is better left to the client, whom the 503 tells to come back (Retry-After).
 */
const THROTTLING_BACKOFF_BASE_MS = 100;
/** The most a throttled call waits between its attempts, in all (100 + 200 ms). */
export const DYNAMODB_THROTTLING_BACKOFF_BUDGET_MS = THROTTLING_BACKOFF_BASE_MS * (2 ** (DYNAMODB_MAX_ATTEMPTS - 1) - 1);
/**
 * What is retried, with which backoff base: transient failures (a reset connection, a timeout, a 5xx)
 * with the SDK's own DynamoDB default, as before; never a client error such as a failed condition.
 */
const BACKOFF_BASE_MS: Partial<Record<RetryErrorType, number>> = { THROTTLING: THROTTLING_BACKOFF_BASE_MS, TRANSIENT: 25 };

const retryToken = (retryCount: number, delayMs: number): RetryToken => ({
  getRetryCount: () => retryCount,
  getRetryDelay: () => delayMs,
});

/**
 * The SDK's standard retry decisions with our own backoff; the SDK's middleware sleeps for the
 * returned delay. No retry quota: every call's retries are bounded anyway, so a quota drained by one
 * burst of throttling would only fail the next momentary throttle that a retry would have ridden out.
 */
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

/**
 * Settings the SDK would otherwise look up on the first request in ~/.aws/config and
 * ~/.aws/credentials, fixed to what that lookup finds in Lambda — no such files, and the stack sets
 * none of the AWS_* variables that would change them — so the first request skips the lookup and
 * reads no file for it. `userAgentAppId` would be empty; it names the service in DynamoDB's request
 * logs instead. Only in Lambda: the keys CLI and the local server keep the SDK's full lookup
 * (profiles, a developer's own settings).
 */
const LAMBDA_SETTINGS = {
  useDualstackEndpoint: false,
  useFipsEndpoint: false,
  accountIdEndpointMode: 'preferred',
  authSchemePreference: [],
  endpointDiscoveryEnabled: false,
  defaultsMode: 'legacy',
  disableClockSkewCorrection: false,
  userAgentAppId: SERVICE_NAME,
  // No AWS_ENDPOINT_URL(_DYNAMODB) and no profile `endpoint_url`: the regional endpoint, as before.
  ignoreConfiguredEndpointUrls: true,
} as const satisfies Partial<DynamoDBClientConfig>;

const inLambda = (): boolean => process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;

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
