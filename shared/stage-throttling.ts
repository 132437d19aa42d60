/**
 * Each stage's API Gateway throttle, as plain data: lib/stage-config.ts deploys it and the local
 * server emulates it (local/throttle.ts). No aws-cdk-lib import here on purpose.
 */
import type { StageName } from './stages';

export interface ThrottleConfig {
  /** Steady-state requests per second across all routes of one API. */
  readonly rateLimit: number;
  /** Requests the API accepts in a burst above the steady rate. */
  readonly burstLimit: number;
}

export const STAGE_THROTTLING: Record<StageName, ThrottleConfig> = {
  dev: { rateLimit: 20, burstLimit: 40 },
  staging: { rateLimit: 50, burstLimit: 100 },
  prod: { rateLimit: 200, burstLimit: 400 },
};
