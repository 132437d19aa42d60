/**
 * What every function runs with besides its table names: deployed, emulated locally and benchmarked alike. No
 * --enable-source-maps: Node would parse each source map at every cold start (lambda/runtime/source-mapped-stack.ts).
 */
export const SERVICE_NAME = 'petstore';

/** Cold starts are CPU-bound and CPU grows with memory: 512 MB starts noticeably faster than 256 MB (re-measure first). */
export const FUNCTION_MEMORY_MB = 512;

/** Above the worst DynamoDB path (3 × 2 s), below the HTTP API's 30 s: a slow request fails as our 5xx, not a gateway one. */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** The metrics' `Stage` dimension (shared/metrics.ts): stages may share an account. `local` when absent. */
export const STAGE_ENV = 'PETSTORE_STAGE';

export const functionEnvironment = (logLevel: string): Readonly<Record<string, string>> => ({
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_LOG_LEVEL: logLevel,
});

/** The longest a request waits on a throttled DynamoDB call before it answers 503, plus its own work around it. */
export const THROTTLED_REQUEST_HOLD_MS = 400;

/**
 * Reserved concurrency for a write route: its whole throttle held for the fail-fast bound (Little's law: rate × hold)
 * and no more, yet above rate / 10 (Lambda allows 10 invocations per second per unit of concurrency).
 */
export const reservedConcurrencyFor = (rateLimit: number): number =>
  Math.max(Math.ceil((rateLimit * THROTTLED_REQUEST_HOLD_MS) / 1000), Math.ceil(rateLimit / 10));

/** The writes, whose throttled calls hold a function longest; reads keep the shared pool. */
export const CONCURRENCY_GUARDED_FUNCTIONS = ['createPet', 'submitMessage'] as const;

/** Lambda's per-invocation records are INFO: at WARN they are not ingested, and its metrics still say what they did. */
export type SystemLogLevel = 'DEBUG' | 'INFO' | 'WARN';
