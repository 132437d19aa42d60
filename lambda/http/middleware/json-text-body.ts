import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';
import { parseMediaType } from '#shared/media-type';

/**
 * The spec's 400 unless "the content type is `application/json`": exactly that type (not `+json`), by RFC 9110's
 * grammar (shared/media-type.ts), every `charset` saying UTF-8 (the body is read so).
 */
function isJsonMediaType(header: string | undefined): boolean {
  const media = header === undefined ? undefined : parseMediaType(header);
  return (
    media?.essence === 'application/json' &&
    media.parameters.every(([name, value]) => name !== 'charset' || value.toLowerCase() === 'utf-8')
  );
}

let utf8: InstanceType<typeof TextDecoder> | undefined;

/** Refuses other media types, and decodes a base64 body only if valid UTF-8: never store `\uFFFD` for a client's byte. */
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
