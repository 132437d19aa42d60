/** Limits of self-service keys (the account API, docs/portal.md). */

/** Active keys one account may hold at once; revoking one frees its place. */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 10;

/** Revoked keys stay in the account's listing this long, then only the operator CLI shows them. */
export const REVOKED_KEYS_LISTED_FOR_DAYS = 30;

/**
 * A key's `lastUsedAt` is written at most once per this interval (on the authorizer's cache misses),
 * so it may lag the latest use by up to this much plus the authorizer's cache window.
 */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
