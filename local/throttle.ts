/**
 * API Gateway's stage throttle, emulated: one token bucket per API (pets, messages), holding up to the
 * burst limit and refilled at the rate limit. A request that finds the bucket empty is answered 429 by
 * the gateway itself, before the authorizer runs. Hand-written: ten lines, with a clock the tests
 * can drive; a dependency would add more than it saves.
 */
import { STAGE_THROTTLING, type ThrottleConfig } from '#shared/stage-throttling';
import { isStageName, STAGES } from '#shared/stages';
import type { ApiName } from '#shared/routes';

export type { ThrottleConfig } from '#shared/stage-throttling';

export interface Throttle {
  /** Takes a token from the API's bucket: `false` means API Gateway would answer 429. */
  admit(api: ApiName): boolean;
}

export function createThrottle(config: ThrottleConfig, now: () => number = () => performance.now()): Throttle {
  const buckets = new Map<ApiName, { tokens: number; at: number }>();
  return {
    admit: (api) => {
      const time = now();
      const bucket = buckets.get(api) ?? { tokens: config.burstLimit, at: time };
      bucket.tokens = Math.min(config.burstLimit, bucket.tokens + ((time - bucket.at) / 1000) * config.rateLimit);
      bucket.at = time;
      buckets.set(api, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}

/**
 * `PETSTORE_THROTTLE`: a stage name (its limits from shared/stage-throttling.ts) or `off`. `npm start`
 * emulates the dev stage by default, like the stage a developer deploys first.
 */
export function throttleFromEnvironment(value: string = process.env.PETSTORE_THROTTLE ?? 'dev'): ThrottleConfig | undefined {
  if (value === 'off') return undefined;
  if (isStageName(value)) return STAGE_THROTTLING[value];
  throw new Error(`PETSTORE_THROTTLE must be off or a stage (${STAGES.join(', ')}), got ${value}`);
}
