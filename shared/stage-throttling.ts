/**
 * Each stage's API Gateway throttles, as plain data: lib/stage-config.ts deploys them (the stage's default
 * route settings and its route settings) and the local server emulates them (local/throttle.ts). No
 * aws-cdk-lib import here on purpose.
 *
 * An HTTP API throttles route by route: the stage's default route settings give every route a token bucket
 * of its own, and a route settings entry replaces that bucket for the route it names ("Throttling requests to
 * your HTTP API", route-level throttling). All of them draw on the account's 10,000 requests/s per Region.
 * The numbers are sized in docs/capacity.md.
 */
import { PREFLIGHT_ROUTE, ROUTES, type ApiName, type OperationId } from './routes';
import type { StageName } from './stages';

export interface ThrottleConfig {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Requests accepted at once above the steady rate (the bucket's size). */
  readonly burstLimit: number;
}

export interface ApiThrottling {
  /** The bucket every route of the API gets unless `routes` names it. */
  readonly defaultRoute: ThrottleConfig;
  /** Route key (`POST /v1/pets`, `$default`) → its own bucket instead. */
  readonly routes: Readonly<Record<string, ThrottleConfig>>;
}

export type StageThrottling = Readonly<Record<ApiName, ApiThrottling>>;

/** The key API Gateway gives a route: `METHOD /path`, or `$default`. */
export const routeKeyOf = (route: { readonly method: string; readonly path: string }): string => `${route.method} ${route.path}`;
export const DEFAULT_ROUTE_KEY = '$default';
export const PREFLIGHT_ROUTE_KEY = routeKeyOf(PREFLIGHT_ROUTE);

function keyOf(operationId: OperationId): string {
  const route = ROUTES.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`shared/routes.ts has no route ${operationId}`);
  return routeKeyOf(route);
}
export const CREATE_PET_ROUTE_KEY = keyOf('createPet');
export const SUBMIT_MESSAGE_ROUTE_KEY = keyOf('submitMessage');

/** The bucket API Gateway gives one route of an API. */
export const routeThrottle = (api: ApiThrottling, routeKey: string): ThrottleConfig => api.routes[routeKey] ?? api.defaultRoute;

/**
 * Unknown paths (404 from our function) and CORS preflights: a flood of either still runs a function, so each
 * gets a small bucket of its own rather than a read route's.
 */
const sideRoutes = (limit: ThrottleConfig): Record<string, ThrottleConfig> => ({
  [DEFAULT_ROUTE_KEY]: limit,
  [PREFLIGHT_ROUTE_KEY]: limit,
});

export const STAGE_THROTTLING: Record<StageName, StageThrottling> = {
  // What a developer's own requests need; no route apart, so local tests never meet a limit they did not ask for.
  dev: {
    pets: { defaultRoute: { rateLimit: 20, burstLimit: 40 }, routes: {} },
    messages: { defaultRoute: { rateLimit: 20, burstLimit: 40 }, routes: {} },
    account: { defaultRoute: { rateLimit: 20, burstLimit: 40 }, routes: {} },
  },
  // prod's shape at a rehearsal's size.
  staging: {
    pets: {
      defaultRoute: { rateLimit: 100, burstLimit: 200 },
      routes: { [CREATE_PET_ROUTE_KEY]: { rateLimit: 50, burstLimit: 50 }, ...sideRoutes({ rateLimit: 10, burstLimit: 20 }) },
    },
    messages: { defaultRoute: { rateLimit: 50, burstLimit: 100 }, routes: sideRoutes({ rateLimit: 10, burstLimit: 20 }) },
    account: { defaultRoute: { rateLimit: 50, burstLimit: 100 }, routes: {} },
  },
  // Every route at its limit is 6,100 requests/s and 10,800 Lambda invocations/s (two a request behind the Lambda
  // authorizer), 800 over an account at Lambda's default quotas: docs/capacity.md. createPet stays at a quarter of the 4,000 writes/s a new on-demand table takes, and its
  // burst at one second of its rate, which its reserved concurrency is sized for (shared/function-settings.ts).
  prod: {
    pets: {
      defaultRoute: { rateLimit: 1_500, burstLimit: 3_000 },
      routes: { [CREATE_PET_ROUTE_KEY]: { rateLimit: 1_000, burstLimit: 1_000 }, ...sideRoutes({ rateLimit: 100, burstLimit: 200 }) },
    },
    messages: { defaultRoute: { rateLimit: 500, burstLimit: 1_000 }, routes: sideRoutes({ rateLimit: 100, burstLimit: 200 }) },
    // Signed-in people on the portal; the JWT authorizer runs no function.
    account: { defaultRoute: { rateLimit: 200, burstLimit: 400 }, routes: {} },
  },
};
