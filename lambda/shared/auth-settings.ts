/** A revoked key stops working within this time on every warm authorizer instance. */
export const AUTH_CACHE_TTL_MS = 60_000;
/** Bounds the authorizer's memory whatever keys (valid or not) callers present. */
export const AUTH_CACHE_MAX_ENTRIES = 1_000;
