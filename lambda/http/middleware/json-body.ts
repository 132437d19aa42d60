import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';

/**
 * Whether JSON number text denotes an integer by its exact value, not by the double JSON.parse rounds it to:
 * `1.0000000000000001` does not, though it parses to 1. `1.0` and `1e0` do, as JSON Schema's `integer` (a number
 * with a zero fractional part) and so the documents count them.
 */
export function denotesInteger(text: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text) ?? [];
  const significant = (whole + fraction).replace(/0+$/, '');
  const trailingZeros = whole.length + fraction.length - significant.length;
  return /^0*$/.test(significant) || Number(exponent) - fraction.length + trailingZeros >= 0;
}

/**
 * JSON.parse's reviver, with the source text Node hands it: a number rounded onto an integer becomes 0.5, which every
 * integer field refuses with its usual 400 ("must be an integer"). No body field takes a fraction; one that does must
 * read the text itself.
 */
const exactIntegers = (_key: string, value: unknown, context?: { source?: string }): unknown =>
  typeof value === 'number' && Number.isInteger(value) && context?.source !== undefined && !denotesInteger(context.source) ? 0.5 : value;

/**
 * Parses the body (after json-text-body.ts and unique-member-names.ts). Not Middy's JSON body parser: its reviver
 * never gets the source text. A `__proto__` member stays an own property, which the strict schemas refuse.
 */
export const jsonBody = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (!event.body) throw new ApiError(400, 'invalid_json', 'request body is empty; send a JSON object');
    try {
      (event as { body: unknown }).body = JSON.parse(event.body, exactIntegers);
    } catch {
      throw new ApiError(400, 'invalid_json', 'request body is not valid JSON');
    }
  },
});
