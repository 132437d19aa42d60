/**
 * Each stage's API Gateway throttles, built from its options: lib/stage-config.ts deploys them, local/gateway/throttle.ts
 * emulates them. An HTTP API gives every route a token bucket of its own from the default route settings, which a
 * route settings entry replaces for the route it names. Sized in docs/capacity.md.
 */
import { PREFLIGHT_ROUTE, ROUTES, type ApiName, type OperationId } from './routes';
import type { StageOptions } from './stage-options';

export interface ThrottleConfig {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** The bucket's size. */
  readonly burstLimit: number;
}

export interface ApiThrottling {
  readonly defaultRoute: ThrottleConfig;
  /** Route key (`POST /v1/pets`, `$default`) → its own bucket instead of the default. */
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

/** The bucket API Gateway gives one route of an API. */
export const routeThrottle = (api: ApiThrottling, routeKey: string): ThrottleConfig => api.routes[routeKey] ?? api.defaultRoute;

/** Each API's default bucket, and where the stage gives them, createPet's and the side routes' (404, preflight: both run a function). */
export function throttlingOf(options: StageOptions): StageThrottling {
  const bucket = (rate: number | undefined, burst: number | undefined, base: ThrottleConfig): ThrottleConfig | undefined =>
    rate === undefined && burst === undefined ? undefined : { rateLimit: rate ?? base.rateLimit, burstLimit: burst ?? base.burstLimit };
  const pets = { rateLimit: options.petsRateLimit, burstLimit: options.petsBurstLimit };
  const createPet = bucket(options.createPetRateLimit, options.createPetBurstLimit, pets);
  const side = bucket(options.sideRouteRateLimit, options.sideRouteBurstLimit, pets);
  const sideRoutes = side ? { [DEFAULT_ROUTE_KEY]: side, [PREFLIGHT_ROUTE_KEY]: side } : {};
  return {
    pets: { defaultRoute: pets, routes: { ...(createPet ? { [CREATE_PET_ROUTE_KEY]: createPet } : {}), ...sideRoutes } },
    messages: { defaultRoute: { rateLimit: options.messagesRateLimit, burstLimit: options.messagesBurstLimit }, routes: sideRoutes },
    account: { defaultRoute: { rateLimit: options.accountRateLimit, burstLimit: options.accountBurstLimit }, routes: {} },
  };
}
