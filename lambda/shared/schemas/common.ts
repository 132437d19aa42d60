import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/** For routes without path parameters. */
export const NoPathParameters = z.strictObject({});

/** For operations without query parameters: a stray `?foo=` is a client mistake worth reporting. */
export const NoQueryParameters = z.strictObject({});

/**
 * For operations without a request body: whatever body arrives (a GET may carry one) is ignored, as
 * before any body handling; it is never parsed, so it can never be the cause of an error.
 */
export const NoBody = z.pipe(
  z.unknown(),
  z.transform((): undefined => undefined),
);

/** For the `$default` route, which answers 404 whatever the path or query. */
export const AnyParameters = z.unknown();

/** Identifiers are positive integers within the range every JSON client reads exactly (≤ 2^53−1). */
export const PositiveSafeInteger = z.int().check(z.positive()).register(apiDocs, { format: 'int64' });
