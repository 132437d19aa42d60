import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';

/**
 * Every stored item must fit DynamoDB's 400 KB item limit, so bodies over 256 KiB are refused before
 * any parsing (no library offers this check for Middy; it is a few lines).
 */
export const MAX_BODY_BYTES = 256 * 1024;

export function bodyByteLength(body: string, isBase64Encoded: boolean): number {
  return isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
}

export const limitBodySize = (maxBytes = MAX_BODY_BYTES): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (event.body !== undefined && bodyByteLength(event.body, event.isBase64Encoded) > maxBytes) {
      throw new ApiError(413, 'payload_too_large', `request body exceeds ${maxBytes} bytes`);
    }
  },
});
