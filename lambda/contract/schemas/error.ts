/** The spec's Error body for the OpenAPI document (map-errors.ts builds it); the contract tests hold answers to it. */
import * as z from 'zod/mini';
import type { AccountErrorCode, ErrorCode, ServiceErrorCode } from '../errors';
import { apiDocs } from './api-docs';

export interface ErrorCodeDocs {
  readonly status: number;
  /** When a client gets it. */
  readonly when: string;
  /** A `message` the service really sends. */
  readonly example: string;
}

/** Every code of the pets and messages APIs must be documented here: adding a code without a line fails the type-check. */
export const ERROR_CODES = {
  invalid_request: {
    status: 400,
    when: 'A field, query or path parameter or header is missing, unknown or invalid; the message names it.',
    example: "field 'name' is required",
  },
  invalid_json: {
    status: 400,
    when: 'The body is empty, not valid JSON (a member name repeated in one object included: I-JSON, RFC 7493), or not valid UTF-8.',
    example: 'request body is not valid JSON',
  },
  unsupported_media_type: {
    status: 400,
    when:
      'A body-carrying call whose `Content-Type` is not `application/json` (parameters are fine; `+json` types such as ' +
      '`application/problem+json` and any charset other than UTF-8 are refused), or is not a well-formed media type (RFC 9110). ' +
      'The spec asks for 400, not 415.',
    example: 'Content-Type must be application/json (with charset=utf-8 or no charset)',
  },
  unauthorized: {
    status: 401,
    when: 'The key is missing, unknown or revoked, or the header is not `Bearer <key>`.',
    example: 'missing API key: send the header `Authorization: Bearer <API_KEY>`',
  },
  not_found: { status: 404, when: 'No animal with that id, or no such route.', example: 'no pet has the id 42' },
  payload_too_large: { status: 413, when: 'The body exceeds 256 KiB.', example: 'request body exceeds 262144 bytes' },
  idempotency_key_reused: {
    status: 422,
    when: 'The `Idempotency-Key` was already used (same account, same operation) with a different body.',
    example: 'this Idempotency-Key was already used with a different request body',
  },
  internal_error: { status: 500, when: 'A bug on our side; the body never contains internals.', example: 'internal error' },
  service_unavailable: {
    status: 503,
    when: 'The database is throttling or unreachable; retry after `Retry-After` seconds.',
    example: 'the service is temporarily unavailable; retry shortly',
  },
} as const satisfies Record<ServiceErrorCode, ErrorCodeDocs>;

/** The account API's own codes, documented in its document only (the pets document stays the spec's). */
export const ACCOUNT_ERROR_CODES = {
  key_limit_reached: {
    status: 409,
    when: 'The account already has as many active keys as it may (`maxActiveKeys` of `GET /account/keys`); revoke one first.',
    example: 'this account already has 10 active keys; revoke one before creating another',
  },
  daily_key_limit_reached: {
    status: 429,
    when: 'The account already created as many keys today (UTC) as it may; `Retry-After` says when the next day starts.',
    example: 'this account already created 20 keys today (UTC); try again after midnight UTC',
  },
} as const satisfies Record<AccountErrorCode, ErrorCodeDocs>;

export const ALL_ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeDocs>> = { ...ERROR_CODES, ...ACCOUNT_ERROR_CODES };

const codeList = Object.entries(ERROR_CODES)
  .map(([code, docs]) => `\`${code}\` (${docs.status})`)
  .join(', ');

export const ErrorBody = z
  .strictObject({
    code: z.string().register(apiDocs, {
      description: `Machine-readable and stable: ${codeList}. New codes may be added; existing ones keep their meaning.`,
      examples: ['invalid_request'],
    }),
    message: z
      .string()
      .check(z.minLength(1))
      .register(apiDocs, {
        description: 'Human-readable: what is wrong, naming the field or parameter when there is one.',
        examples: ["field 'name' is required"],
      }),
    status: z
      .int()
      .check(z.gte(400), z.lte(599))
      .register(apiDocs, { description: 'The HTTP status, repeated.', examples: [400] }),
  })
  .register(apiDocs, {
    id: 'Error',
    description: 'The body of every error answer.',
    examples: [{ code: 'invalid_request', message: "field 'name' is required", status: 400 }],
  });

/** API Gateway's own body (throttling, a failed function, payload limits), documented so generated clients read it. */
export const GatewayErrorBody = z.strictObject({ message: z.string() }).register(apiDocs, {
  id: 'GatewayError',
  description:
    "The body of an answer API Gateway gives by itself (throttling, a failed function, a body over its limits); not the service's Error.",
  examples: [{ message: 'Too Many Requests' }],
});
