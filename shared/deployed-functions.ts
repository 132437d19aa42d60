import { ACCOUNT_NOT_FOUND_ENTRY, ALL_ROUTES, AUTHORIZER_ENTRY, NOT_FOUND_ENTRY, PREFLIGHT_ENTRY, type RouteDefinition } from './routes';
import type { FunctionName } from './table-access';

export interface DeployedFunction {
  readonly name: FunctionName;
  /** Handler module relative to the project root. */
  readonly entry: string;
  /** What it does, after its name in the function's description. */
  readonly summary: string;
  /** The route it serves; the authorizer and the `$default` function serve none of their own. */
  readonly route?: RouteDefinition;
  /** Serves the account API, whose callers send access tokens. */
  readonly account?: true;
}

/** Every function of the service: the stack deploys exactly these, the local server loads exactly these. */
export const DEPLOYED_FUNCTIONS: readonly DeployedFunction[] = [
  { name: 'authorizer', entry: AUTHORIZER_ENTRY, summary: 'resolves the caller from the Bearer API key' },
  ...ALL_ROUTES.map((route) => ({
    name: route.operationId,
    entry: route.entry,
    summary: `${route.method} ${route.path}`,
    route,
    ...(route.api === 'account' ? { account: true as const } : {}),
  })),
  { name: 'notFound', entry: NOT_FOUND_ENTRY, summary: 'answers 404 for unknown routes' },
  { name: 'accountNotFound', entry: ACCOUNT_NOT_FOUND_ENTRY, summary: 'answers 404 for unknown account API routes', account: true },
  { name: 'preflight', entry: PREFLIGHT_ENTRY, summary: 'answers CORS preflights (OPTIONS) with 204' },
];
