/** The stage check (lib/petstore-stage-check.ts, lambda/handlers/stage-check.ts): its function and the variables it is given. */
import type { DeployedFunction } from './deployed-functions';

export const STAGE_CHECK: DeployedFunction = {
  name: 'stageCheck',
  entry: 'lambda/handlers/stage-check.ts',
  summary: 'the smoke checks: on a schedule through the public URLs, and before a canary against its new versions',
};

/** The pre-traffic hook's time for its checks; the canary's traffic comes on top, within Lambda's 15-minute timeout. */
export const PRE_TRAFFIC_CHECK_MINUTES = 2;
export const CANARY_TRAFFIC_MAX_MINUTES = 15 - PRE_TRAFFIC_CHECK_MINUTES;

export const STAGE_CHECK_ENV = {
  /** The secret holding the check's own API key. */
  keySecret: 'PETSTORE_CHECK_KEY_SECRET',
  petsBaseUrl: 'PETSTORE_PETS_BASE_URL',
  messagesBaseUrl: 'PETSTORE_MESSAGES_BASE_URL',
  /** The pre-traffic hook's: JSON of each function's name → the version the deploy published; creates or not; the canary's traffic. */
  versions: 'PETSTORE_CHECK_VERSIONS',
  writes: 'PETSTORE_CHECK_WRITES',
  canaryTrafficMs: 'PETSTORE_CHECK_CANARY_TRAFFIC_MS',
} as const;

/**
 * Before its verdict the pre-traffic hook repeats its checks until each new version they reach has answered this many
 * requests: the canary's judgement (lib/canary-judgement.ts) then has enough of them in its first period.
 */
export const PRE_TRAFFIC_ANSWERS_AT_LEAST = 20;
/** The hook's passes at most: each pass reaches every version at least twice, so 10 passes do when all goes well. */
export const PRE_TRAFFIC_PASSES_AT_MOST = 25;
