/**
 * API Gateway's stage throttles: one token bucket per route of each API, sized as the stage deploys them
 * (shared/stage-throttling.ts); an empty bucket is the gateway's 429, before the authorizer runs.
 */
import {
  DEFAULT_ROUTE_KEY,
  PREFLIGHT_ROUTE_KEY,
  routeKeyOf,
  routeThrottle,
  throttlingOf,
  type StageThrottling,
  type ThrottleConfig,
} from '#shared/stage-throttling';
import { readStageOptions } from '#shared/stage-options';
import { isStageName, STAGES } from '#shared/stages';
import type { ApiName, RouteDefinition } from '#shared/routes';

export type { StageThrottling, ThrottleConfig } from '#shared/stage-throttling';

/** A stage's throttles, or one limit for every route of every API (tests). */
export type GatewayThrottle = StageThrottling | ThrottleConfig;

const everyRoute = (limit: ThrottleConfig): StageThrottling => {
  const api = { defaultRoute: limit, routes: {} };
  return { pets: api, messages: api, account: api };
};

/** `admit` takes a token from the route's bucket: `false` means API Gateway would answer 429. */
export function createThrottle(config: GatewayThrottle, now: () => number = () => performance.now()) {
  const stage = 'rateLimit' in config ? everyRoute(config) : config;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    admit: (api: ApiName, routeKey: string): boolean => {
      const { rateLimit, burstLimit } = routeThrottle(stage[api], routeKey);
      const time = now();
      const name = `${api} ${routeKey}`;
      const bucket = buckets.get(name) ?? { tokens: burstLimit, at: time };
      bucket.tokens = Math.min(burstLimit, bucket.tokens + ((time - bucket.at) / 1000) * rateLimit);
      bucket.at = time;
      buckets.set(name, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}

/** The route API Gateway would match: the request's, else the preflight route (every path but `/`), else `$default`. */
export function gatewayRouteKey(route: RouteDefinition | undefined, method: string, path: string): string {
  if (route) return routeKeyOf(route);
  return method === 'OPTIONS' && path.length > 1 ? PREFLIGHT_ROUTE_KEY : DEFAULT_ROUTE_KEY;
}

/** `PETSTORE_THROTTLE`: `off`, or a stage whose limits (config/<stage>.json) to emulate; dev by default. */
export function throttleFromEnvironment(value: string = process.env.PETSTORE_THROTTLE ?? 'dev'): StageThrottling | undefined {
  if (value === 'off') return undefined;
  if (isStageName(value)) return throttlingOf(readStageOptions(value).options);
  throw new Error(`PETSTORE_THROTTLE must be off or a stage (${STAGES.join(', ')}), got ${value}`);
}

/** One line for the server's start-up output: each API's default route bucket, and every route apart. */
export function describeThrottle(stage: StageThrottling): string {
  const apis = Object.entries(stage) as [ApiName, StageThrottling[ApiName]][];
  const limit = ({ rateLimit, burstLimit }: ThrottleConfig): string => `${rateLimit} requests/s, bursts of ${burstLimit}`;
  const defaults = new Set(apis.map(([, { defaultRoute }]) => limit(defaultRoute)));
  const perRoute =
    defaults.size === 1
      ? `${[...defaults].join('')}, per API route`
      : apis.map(([api, { defaultRoute }]) => `${api} ${limit(defaultRoute)}`).join('; ') + ', per route';
  const apart = apis.flatMap(([api, { routes }]) => Object.entries(routes).map(([key, route]) => `${api} ${key} ${limit(route)}`));
  return apart.length > 0 ? `${perRoute}; apart: ${apart.join('; ')}` : perRoute;
}
