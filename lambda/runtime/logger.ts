import type { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '#shared/function-settings';

export type LogLevel = 'warn' | 'error';

let loading: Promise<Logger> | undefined;

/**
 * Powertools Logger (structured JSON; level from POWERTOOLS_LOG_LEVEL), loaded on first use: only
 * failure paths log, so no cold start pays for loading it (`npm run bench`, part 1), and esbuild
 * keeps a dynamically imported module unevaluated until then. Never log keys, Authorization headers
 * or bodies.
 */
export function logger(): Promise<Logger> {
  loading ??= import('@aws-lambda-powertools/logger').then(
    ({ Logger: PowertoolsLogger }) => new PowertoolsLogger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME }),
  );
  return loading;
}

/** An error's stack as TypeScript positions: see source-mapped-stack.ts (also loaded on first use). */
async function withSourceStacks(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const errors = Object.values(fields).filter((value): value is Error => value instanceof Error && typeof value.stack === 'string');
  if (errors.length === 0) return fields;
  const { sourceMappedStack } = await import('./source-mapped-stack');
  for (const error of errors) error.stack = sourceMappedStack(error.stack as string);
  return fields;
}

export async function log(level: LogLevel, message: string, fields: Record<string, unknown>): Promise<void> {
  (await logger())[level](message, await withSourceStacks(fields));
}
