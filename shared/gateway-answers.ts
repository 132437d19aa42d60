/**
 * Answers API Gateway (or Lambda behind it) gives by itself, with its own `{"message"}` body and none of the
 * operation's headers: the OpenAPI document describes them, the local server answers them the same way.
 */

/** API Gateway's quota on the request line and the header values together (HTTP API quotas). */
export const GATEWAY_MAX_REQUEST_HEAD_BYTES = 10_240;

/** API Gateway HTTP APIs accept request bodies up to 10 MB. */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Lambda's limit on a synchronous invocation's event JSON: a binary body counts base64-encoded, escapes as escapes. */
export const LAMBDA_MAX_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;

export const GATEWAY_ANSWERS = {
  401: {
    message: 'Unauthorized',
    when: "The account API's JWT authorizer refused the token (with a `WWW-Authenticate` challenge) before the function ran.",
  },
  403: {
    message: 'Forbidden',
    when: 'An authorizer denied the request. Ours never does (the functions answer 401 themselves), so no operation documents it.',
  },
  413: {
    message: 'Request Entity Too Large',
    when:
      'API Gateway refuses a body over its 10 MB limit, and Lambda an event over its 6 MB synchronous invocation limit (a binary ' +
      'body counts base64-encoded), before the function runs.',
  },
  431: {
    message: 'Request Header Fields Too Large',
    when:
      "The request line and header values exceed API Gateway's 10,240-byte quota. AWS documents the quota, not its answer: the " +
      'local server answers this (RFC 6585), and no client should rely on more than a 4xx.',
  },
  429: {
    message: 'Too Many Requests',
    when:
      "API Gateway throttles the route (the stage's rate and burst limits apply to each route). It sends no `Retry-After`: retry " +
      'after a short pause that grows with each 429 (e.g. 100 ms, doubling, with jitter, up to a few seconds).',
  },
  500: {
    message: 'Internal Server Error',
    when: 'API Gateway answers this when a function (or the authorizer) crashes, times out or is throttled by Lambda.',
  },
} as const satisfies Record<number, { message: string; when: string }>;

export type GatewayAnswerStatus = keyof typeof GATEWAY_ANSWERS;
