/**
 * The variables the stack sets on every function besides its table names (lib/table-access.ts), as
 * plain data: lib/petstore-function.ts deploys them and the cold-start benchmark starts its processes
 * with them, so what is measured is what runs. No aws-cdk-lib import here on purpose.
 *
 * No NODE_OPTIONS=--enable-source-maps: Node would parse each bundle's source map at every cold start
 * (~12 ms, bench/ part 1); lambda/shared/source-mapped-stack.ts maps a logged error's stack instead.
 */
export const SERVICE_NAME = 'petstore';

export const functionEnvironment = (logLevel: string): Readonly<Record<string, string>> => ({
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_LOG_LEVEL: logLevel,
});
