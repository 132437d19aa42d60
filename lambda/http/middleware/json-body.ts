import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';

/** Whether JSON number text is whole by its exact value (`1.0`, `1e0`), not by the double it rounds to (`1.0000000000000001`). */
export function denotesInteger(text: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text) ?? [];
  const significant = (whole + fraction).replace(/0+$/, '');
  const trailingZeros = whole.length + fraction.length - significant.length;
  return /^0*$/.test(significant) || Number(exponent) - fraction.length + trailingZeros >= 0;
}

/** A number only rounded onto an integer becomes 0.5, which every integer field refuses (no body field takes fractions). */
const exactIntegers = (_key: string, value: unknown, context?: { source?: string }): unknown =>
  typeof value === 'number' && Number.isInteger(value) && context?.source !== undefined && !denotesInteger(context.source) ? 0.5 : value;

/** Not @middy/http-json-body-parser (bench/reference/'s only): it calls a reviver without each number's source text. */
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
