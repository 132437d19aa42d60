import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/** For routes without path parameters. */
export const NoPathParameters = z.strictObject({});

/** For operations without query parameters: a stray `?foo=` is a client mistake worth reporting. */
export const NoQueryParameters = z.strictObject({});

/** Identifiers are positive integers within the range every JSON client reads exactly (≤ 2^53−1). */
export const PositiveSafeInteger = z.int().check(z.positive()).register(apiDocs, { format: 'int64' });
