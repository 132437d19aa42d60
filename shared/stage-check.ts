/**
 * The stage check as plain data (lib/petstore-stage-check.ts deploys it, scripts/smoke/stage-check.ts runs it): its
 * function, fitted to the same recipe as the others, and the variables the stack hands it.
 */
import type { DeployedFunction } from './deployed-functions';

export const STAGE_CHECK: DeployedFunction = {
  name: 'stageCheck',
  entry: 'scripts/smoke/stage-check.ts',
  summary: 'the smoke checks: on a schedule through the public URLs, and before a canary against its new versions',
};

export const STAGE_CHECK_ENV = {
  /** The Secrets Manager secret holding the check's own API key (docs/runbooks.md, "The stage check's key"). */
  keySecret: 'PETSTORE_CHECK_KEY_SECRET',
  petsBaseUrl: 'PETSTORE_PETS_BASE_URL',
  messagesBaseUrl: 'PETSTORE_MESSAGES_BASE_URL',
  /** JSON: each function's name → the ARN of the version this deploy published (the pre-traffic hook only). */
  versions: 'PETSTORE_CHECK_VERSIONS',
  /** `true`: the pre-traffic run also creates (a pet, a message). */
  writes: 'PETSTORE_CHECK_WRITES',
  /** How long the hook keeps calling the public URLs once its checks passed, in milliseconds (0: not at all). */
  canaryTrafficMs: 'PETSTORE_CHECK_CANARY_TRAFFIC_MS',
} as const;
