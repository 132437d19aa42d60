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

export const functionEnvironment = (logLevel: string): Readonly<Record<string, string>> => ({
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_LOG_LEVEL: logLevel,
});
