import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { GatewayFunctions, LambdaFunction } from '#shared/gateway-events';
import type { FunctionName } from '#shared/table-access';

export type { GatewayFunctions, LambdaFunction };

async function load(entry: string): Promise<LambdaFunction> {
  // Relative to this file, so it resolves the same under tsx (ESM) and jest (CommonJS).
  const module: unknown = await import(`../../${entry}`);
  const handler = (module as { handler?: unknown }).handler;
  if (typeof handler !== 'function') throw new Error(`${entry} does not export a handler function`);
  return handler as LambdaFunction;
}

/** Every function the stack deploys, by name. Call it once the environment is set: handlers read it as they load. */
export async function loadHandlers(): Promise<ReadonlyMap<FunctionName, LambdaFunction>> {
  return new Map(await Promise.all(DEPLOYED_FUNCTIONS.map(async (fn) => [fn.name, await load(fn.entry)] as const)));
}

export function gatewayFunctions(named: (name: FunctionName) => LambdaFunction): GatewayFunctions {
  return {
    authorizer: named('authorizer'),
    notFound: named('notFound'),
    accountNotFound: named('accountNotFound'),
    preflight: named('preflight'),
    operations: new Map(DEPLOYED_FUNCTIONS.flatMap(({ name, route }) => (route ? [[route.operationId, named(name)] as const] : []))),
  };
}

/** Every handler, loaded in this process. Same rule: environment first. */
export async function loadFunctions(): Promise<GatewayFunctions> {
  const handlers = await loadHandlers();
  return gatewayFunctions((name) => {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`shared/deployed-functions.ts has no function ${name}`);
    return handler;
  });
}
