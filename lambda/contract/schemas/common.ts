import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/** For routes without path parameters. */
export const NoPathParameters = z.strictObject({});

/** For operations without query parameters: a stray `?foo=` is a client mistake worth reporting. */
export const NoQueryParameters = z.strictObject({});

/** Identifiers are positive integers within the range every JSON client reads exactly (≤ 2^53−1). */
export const PositiveSafeInteger = z.int().check(z.positive()).register(apiDocs, { format: 'int64' });

/** An integer parameter as a URI template (RFC 6570) writes it: `01`, `+5`, `1e1`, `5.0`, ` 5` and `-0` are not. */
export const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]*)$/;

/** The same rule in the words of the parameter descriptions (the document's integer schema cannot say it). */
export const INTEGER_TEXT_RULE =
  'On the wire it is an integer in canonical decimal form, as a URI template writes one: no leading zeros, ' +
  'no `+`, exponent, decimal point or spaces (`01`, `+5`, `1e1` answer 400).';

/** An integer parameter from `min` to `max`, one message for every miss (text past 2^53 parses above `max`). */
export const integerText = (min: number, max: number, error: string) =>
  z
    .pipe(
      z.string().check(z.regex(INTEGER_TEXT, { error })),
      z.transform((text: string) => Number(text)),
    )
    .check(z.refine((value: number) => value >= min && value <= max, { error }));
