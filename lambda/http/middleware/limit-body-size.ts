import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '#contract/errors';

/** Items must fit DynamoDB's 400 KB: bodies over 256 KiB are refused before any parsing. */
export const MAX_BODY_BYTES = 256 * 1024;

export const limitBodySize = (maxBytes = MAX_BODY_BYTES): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    if (event.body !== undefined && Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') > maxBytes) {
      throw new ApiError(413, 'payload_too_large', `request body exceeds ${maxBytes} bytes`);
    }
  },
});
