import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SERVICE_NAME } from '#shared/function-settings';

/**
 * Timeouts and retries are explicit so a slow or unreachable DynamoDB fails a request well inside the
 * Lambda timeout instead of hanging it: at most 3 attempts (standard mode: exponential backoff with
 * full jitter) of at most DYNAMODB_REQUEST_TIMEOUT_MS each.
 */
export const DYNAMODB_MAX_ATTEMPTS = 3;
const DEFAULT_CONNECTION_TIMEOUT_MS = 1_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;

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
  // Agent *options*, not agents: the handler builds its keep-alive agent from them for the protocol
  // in use only (HTTPS in AWS; plain HTTP only for local endpoints).
  const agentOptions = { keepAlive: true, maxSockets: 50 };
  const chosenRegion = region ?? process.env.AWS_REGION;
  return new DynamoDBClient({
    ...(inLambda() ? LAMBDA_SETTINGS : {}),
    // Lambda always sets AWS_REGION; elsewhere (the keys CLI) the SDK's own chain finds the profile's.
    ...(chosenRegion ? { region: chosenRegion } : {}),
    // Only set locally (DynamoDB Local / dynalite); in AWS the regional endpoint is used.
    ...(endpoint ? { endpoint } : {}),
    maxAttempts: DYNAMODB_MAX_ATTEMPTS,
    retryMode: 'standard',
    requestHandler: new NodeHttpHandler({
      connectionTimeout: positiveNumberFromEnv('DYNAMODB_CONNECTION_TIMEOUT_MS', DEFAULT_CONNECTION_TIMEOUT_MS),
      requestTimeout: positiveNumberFromEnv('DYNAMODB_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
      // Without this the handler only logs a warning and the request hangs on.
      throwOnRequestTimeout: true,
      httpsAgent: agentOptions,
      httpAgent: agentOptions,
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
  sharedClient ??= createDynamoDbClient();
  return sharedClient;
}

export function documentClient(): DynamoDBDocumentClient {
  sharedDocumentClient ??= toDocumentClient(dynamoDbClient());
  return sharedDocumentClient;
}
