/**
 * The "none" inputs of operations that take no body or accept any path and query, in a module of
 * their own: the not-found function needs nothing else of the schemas (and so builds nothing else
 * at cold start).
 */
import * as z from 'zod/mini';

/**
 * For operations without a request body: whatever body arrives (a GET may carry one) is never parsed
 * or read, so it can never be the cause of an error. The handler factory knows it by identity.
 */
export const NoBody = z.unknown();

/** For the `$default` route, which answers 404 whatever the path or query. */
export const AnyParameters = z.unknown();
