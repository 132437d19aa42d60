/** The "none" inputs, apart: the not-found function builds no other schema at cold start. */
import * as z from 'zod/mini';

/** No request body: whatever arrives is never read (the handler factory knows it by identity). */
export const NoBody = z.unknown();

/** For the `$default` route, which answers 404 whatever the path or query. */
export const AnyParameters = z.unknown();
