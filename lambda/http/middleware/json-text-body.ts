import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';
import { parseMediaType } from '#shared/media-type';

/**
 * The spec: 400 when "the content type is not `application/json`". Exactly that type, with any
 * parameters in any case and spacing RFC 9110 allows; `+json` types such as `application/problem+json`
 * are other types and are refused, and so is a value that is no media type at all (`application/json;
 * charset`). The body is read as UTF-8 (RFC 8259), so every `charset` parameter sent must say so.
 * Parsed by the same strict grammar the contract tests read requests with (shared/media-type.ts): the
 * `content-type` package accepted malformed parameters and let the first of two charsets win.
 */
export function isJsonMediaType(header: string | undefined): boolean {
  const media = header === undefined ? undefined : parseMediaType(header);
  return (
    media?.essence === 'application/json' &&
    media.parameters.every(([name, value]) => name !== 'charset' || value.toLowerCase() === 'utf-8')
  );
}

let utf8: InstanceType<typeof TextDecoder> | undefined;

/**
 * Runs before Middy's JSON body parser (whose own check accepts every `+json` type): refuses any
 * other media type, and turns a body the gateway passed base64-encoded (bytes that are not text) into
 * text only if it is valid UTF-8. Decoding with replacement would store `caf\uFFFD` for `caf\xE9`:
 * never change what the client sent, refuse it instead.
 */
export const jsonTextBody = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (!isJsonMediaType(event.headers['content-type'])) {
      throw new ApiError(400, 'unsupported_media_type', 'Content-Type must be application/json (with charset=utf-8 or no charset)');
    }
    if (event.isBase64Encoded && event.body !== undefined) {
      try {
        utf8 ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
        event.body = utf8.decode(Buffer.from(event.body, 'base64'));
      } catch {
        throw new ApiError(400, 'invalid_json', 'request body is not valid UTF-8');
      }
      event.isBase64Encoded = false;
    }
  },
});
