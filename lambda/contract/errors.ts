/** Every error a client sees is an ApiError; anything else becomes a 500 without internals (map-errors.ts). */
export type ServiceErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'unauthorized'
  | 'not_found'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'service_unavailable'
  | 'internal_error';
/** Answered by the account API only (docs/openapi/account.json), never by the pets or messages APIs. */
export type AccountErrorCode = 'key_limit_reached' | 'daily_key_limit_reached';
export type ErrorCode = ServiceErrorCode | AccountErrorCode;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `WWW-Authenticate` on 401 or `Retry-After` on 503. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const serviceUnavailable = (): ApiError =>
  new ApiError(503, 'service_unavailable', 'the service is temporarily unavailable; retry shortly', { 'retry-after': '1' });

export const invalidRequest = (message: string): ApiError => new ApiError(400, 'invalid_request', message);
/** The one 401: the spec's body with the challenge every 401 carries (RFC 9110). */
export const unauthorized = (message: string): ApiError =>
  new ApiError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="petstore"' });
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const idempotencyKeyReused = (): ApiError =>
  new ApiError(422, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different request body');
