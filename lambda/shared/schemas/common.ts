import * as z from 'zod/mini';

/** For operations without query parameters: a stray `?foo=` is a client mistake worth reporting. */
export const NoQueryParameters = z.strictObject({});
