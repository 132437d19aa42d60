/** Limits of self-service keys (the account API, docs/portal.md). */

/** Active keys one account may hold at once; revoking one frees its place. */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 10;

/** Revoked keys stay listed this long; then TTL deletes them (within days), and revoking one again answers 404. */
export const REVOKED_KEYS_LISTED_FOR_DAYS = 30;

/** The listing shows at most this many revoked keys, the most recently revoked: its cost never grows with the history. */
export const LISTED_REVOKED_KEYS_MAX = 50;

/** Keys one account may create per UTC day (operator-issued keys included), so no account can grow its history without bound. */
export const MAX_KEYS_CREATED_PER_DAY = 20;

/** `lastUsedAt` is written at most once per this interval, so it lags by up to this plus the authorizer's cache. */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
