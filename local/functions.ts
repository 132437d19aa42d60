import type { Context } from 'aws-lambda';
import { AUTHORIZER_ENTRY, NOT_FOUND_ENTRY, ROUTES, type OperationId } from '../lib/routes';

export type LambdaFunction = (event: unknown, context: Context) => Promise<unknown>;

export interface GatewayFunctions {
  readonly authorizer: LambdaFunction;
  readonly notFound: LambdaFunction;
  readonly operations: ReadonlyMap<OperationId, LambdaFunction>;
}

async function load(entry: string): Promise<LambdaFunction> {
  // Relative to this file, so it resolves the same under tsx (ESM) and jest (CommonJS).
  const module: unknown = await import(`../${entry}`);
  const handler = (module as { handler?: unknown }).handler;
  if (typeof handler !== 'function') throw new Error(`${entry} does not export a handler function`);
  return handler as LambdaFunction;
}

/**
 * Imports the same handler modules the CDK stack deploys. Call it only after the environment (table
 * names, DynamoDB endpoint) is set: like in Lambda, handlers read it when their module loads.
 */
export async function loadFunctions(): Promise<GatewayFunctions> {
  const [authorizer, notFound, ...handlers] = await Promise.all([
    load(AUTHORIZER_ENTRY),
    load(NOT_FOUND_ENTRY),
    ...ROUTES.map((route) => load(route.entry)),
  ]);
  if (!authorizer || !notFound) throw new Error('authorizer or not-found handler missing');
  return {
    authorizer,
    notFound,
    operations: new Map(ROUTES.map((route, index) => [route.operationId, handlers[index] as LambdaFunction])),
  };
}
