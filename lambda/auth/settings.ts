/** A revoked key stops working within this time on every warm authorizer instance. */
export const AUTH_CACHE_TTL_MS = 60_000;
/** Bounds the authorizer's memory for keys the table knows (active or revoked). */
export const AUTH_KNOWN_KEYS_MAX = 1_000;
/** Bounds it, apart, for well-formed keys the table does not know: they can never evict a known one. */
export const AUTH_UNKNOWN_KEYS_MAX = 10_000;
