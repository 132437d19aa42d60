/**
 * What every function of the service runs with, besides its table names (shared/table-access.ts), as
 * plain data: lib/petstore-function.ts deploys it, the local server emulates it and the cold-start
 * benchmark starts its processes with it, so what is measured and emulated is what runs. No
 * aws-cdk-lib import here on purpose.
 *
 * No NODE_OPTIONS=--enable-source-maps: Node would parse each bundle's source map at every cold start
 * (`npm run bench`, part 1); lambda/runtime/source-mapped-stack.ts maps a logged error's stack instead.
 */
export const SERVICE_NAME = 'petstore';

/**
 * Warm invocations mostly wait on DynamoDB; memory matters for cold starts, whose module loading and
 * client setup are CPU-bound and Lambda's CPU share grows with memory. 512 MB buys noticeably shorter
 * cold starts than 256 MB for cents per million requests; re-measure before changing it.
 */
export const FUNCTION_MEMORY_MB = 512;

/**
 * Above the worst DynamoDB path (3 attempts of at most 2 s, lambda/data/dynamodb-client.ts) and
 * well below the HTTP API's 30 s integration limit, so a slow request fails as our 5xx, not a gateway one.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/**
 * The stage a function belongs to, as its metrics' `Stage` dimension (shared/metrics.ts): stages may share an
 * account and a namespace. Set by the stack; `local` when absent.
 */
export const STAGE_ENV = 'PETSTORE_STAGE';

export const functionEnvironment = (logLevel: string): Readonly<Record<string, string>> => ({
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_LOG_LEVEL: logLevel,
});

/**
 * The longest a request waits on a throttled DynamoDB call before it answers 503 `service_unavailable`
 * (lambda/data/ fails fast instead of sitting in the SDK's backoff), plus its own work around that call.
 */
export const THROTTLED_REQUEST_HOLD_MS = 400;

/**
 * Reserved concurrency for a write route: enough for its whole throttle while every request is held for the
 * fail-fast bound (Little's law: rate × hold), and no more, so a storm of throttled writes takes that many
 * executions and leaves the rest of the account's pool to every other function. Also above rate / 10: Lambda
 * allows a function 10 invocations per second per unit of its concurrency.
 */
export const reservedConcurrencyFor = (rateLimit: number): number =>
  Math.max(Math.ceil((rateLimit * THROTTLED_REQUEST_HOLD_MS) / 1000), Math.ceil(rateLimit / 10));

/**
 * The writes, whose throttled calls hold a function longest: each gets reserved concurrency sized from its
 * route's throttle where the stage reserves any (lib/stage-config.ts). Reads keep the shared pool.
 */
export const CONCURRENCY_GUARDED_FUNCTIONS = ['createPet', 'submitMessage'] as const;

/**
 * Lambda's own per-invocation records (platform.start, platform.report) are INFO: at WARN they are not
 * ingested, and Lambda's Duration, Errors, Throttles and ConcurrentExecutions metrics still say what they did.
 */
export type SystemLogLevel = 'DEBUG' | 'INFO' | 'WARN';
