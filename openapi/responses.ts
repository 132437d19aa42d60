/** Response headers and error answers, as the middleware stack produces them (lambda/http/). */
import type { ErrorCode } from '#contract/errors';
import { GET_PET_DEPRECATION_HEADERS } from '#contract/operations/get-pet';
import { encodeCursor } from '#http/page-cursor';
import { ALL_ERROR_CODES as ERROR_CODES } from '#contract/schemas/error';
import { GATEWAY_ANSWERS, type GatewayAnswerStatus } from '#shared/gateway-answers';
import { errorCodesOf, takesBody, type OperationDocs } from './operation-docs';
import type { Example, Header, JsonSchema, Response } from './types';

/** The service's error body and API Gateway's own, as a document's schemas. */
export type ErrorSchemas = { readonly error: JsonSchema; readonly gateway: JsonSchema };

const HEADERS = {
  'Cache-Control': {
    description: 'Every answer is private to the caller, so no cache may keep it.',
    schema: { type: 'string', const: 'no-store' },
  },
  Location: {
    description: 'Absolute URL of the new animal, on the host the client called.',
    schema: { type: 'string', format: 'uri', examples: ['https://abc123defg.execute-api.us-east-1.amazonaws.com/v1/pets/244208697521988'] },
  },
  Link: {
    description:
      'Present when more animals follow: the URL of the next page (RFC 8288, `rel="next"`), with the same `limit` and `status` ' +
      'and an opaque `cursor`. A page without it is the last one; there is never an empty trailing page.',
    schema: {
      type: 'string',
      pattern: '^<[^>]+>; rel="next"$',
      examples: [
        `<https://abc123defg.execute-api.us-east-1.amazonaws.com/v1/pets?limit=2&status=sold&cursor=${encodeCursor({ lastId: 244208697521988, status: 'sold' })}>; rel="next"`,
      ],
    },
  },
  Deprecation: {
    description: 'RFC 9745: this operation is deprecated (since 1 January 2026, as a structured-field date).',
    schema: { type: 'string', const: GET_PET_DEPRECATION_HEADERS.deprecation },
  },
  Sunset: {
    description: 'RFC 8594: this operation is removed on 5 December 2030.',
    schema: { type: 'string', const: GET_PET_DEPRECATION_HEADERS.sunset },
  },
  'WWW-Authenticate': {
    description: 'RFC 9110: the scheme to authenticate with.',
    schema: { type: 'string', const: 'Bearer realm="petstore"' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0, examples: [1] },
  },
  'Idempotent-Replayed': {
    description: 'Present when this is the stored answer to an earlier request with the same `Idempotency-Key` (nothing new was stored).',
    schema: { type: 'string', const: 'true' },
  },
} as const satisfies Record<string, { description: string; schema: JsonSchema }>;

export type HeaderName = keyof typeof HEADERS;

/** `name: true` when every such answer carries the header, `false` when only some do. */
export type HeaderUse = Partial<Record<HeaderName, boolean>>;

export function headers(use: HeaderUse): Record<string, Header> {
  return Object.fromEntries(Object.entries(use).map(([name, required]) => [name, { ...HEADERS[name as HeaderName], required }]));
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

type GatewayStatus = GatewayAnswerStatus;
const isGatewayStatus = (status: number): status is GatewayStatus => status in GATEWAY_ANSWERS;

/** Headers the error middleware adds to an error of this status (ApiError.headers). */
const ERROR_HEADERS: Record<number, HeaderUse> = {
  401: { 'WWW-Authenticate': true },
  429: { 'Retry-After': true },
  503: { 'Retry-After': true },
};

/** Advice that holds only where the operation honours `Idempotency-Key` (its spec's `idempotent`). */
const IDEMPOTENT_NOTES: Record<number, string> = {
  503:
    ' A create answered 503 may still have been stored (the database can fail after writing): retry it with the same ' +
    '`Idempotency-Key` to store it exactly once. Without a key, a retry may store it twice.',
};

/**
 * One response per status with its codes and an example of each; where API Gateway answers the same status itself
 * (GATEWAY_ANSWERS), its body is the other `oneOf` branch, and 429 (the gateway's alone) is on every operation.
 */
export function errorResponses(docs: OperationDocs, schemas: ErrorSchemas): Record<string, Response> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(docs)) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const gatewayStatuses: GatewayStatus[] = [429, 500, ...(takesBody(docs) ? ([413] as const) : [])];
  for (const status of gatewayStatuses) if (!byStatus.has(status)) byStatus.set(status, []);
  const entries = [...byStatus].sort(([a], [b]) => a - b);
  return Object.fromEntries(
    entries.map(([status, statusCodes]) => {
      const gateway = isGatewayStatus(status) && gatewayStatuses.includes(status) ? GATEWAY_ANSWERS[status] : undefined;
      const examples: Record<string, Example> = Object.fromEntries(
        statusCodes.map((code) => [
          code,
          { summary: code, value: { code, message: docs.exampleMessages?.[code] ?? ERROR_CODES[code].example, status } },
        ]),
      );
      if (gateway) examples.gateway = { summary: 'answered by API Gateway', value: { message: gateway.message } };
      const when = [
        ...statusCodes.map((code) => `\`${code}\`: ${docs.errorWhen?.[code] ?? ERROR_CODES[code].when}`),
        ...(gateway
          ? [
              `\`{"message":"${gateway.message}"}\`: ${gateway.when} API Gateway sends this body without a Content-Type (listed under application/json only because OpenAPI needs a media type).`,
            ]
          : []),
      ].join(' ');
      const schema = statusCodes.length === 0 ? schemas.gateway : gateway ? { oneOf: [schemas.error, schemas.gateway] } : schemas.error;
      // The gateway's own answers carry none of our headers: on such a status they are only sometimes there.
      const ours: HeaderUse = { 'Cache-Control': true, ...ERROR_HEADERS[status], ...docs.headers };
      const answerHeaders =
        statusCodes.length === 0 ? {} : gateway ? Object.fromEntries(Object.keys(ours).map((name) => [name, false])) : ours;
      const response: Response = {
        description: `${REASONS[status] ?? 'Error'}. ${when}${docs.spec.idempotent ? (IDEMPOTENT_NOTES[status] ?? '') : ''}`,
        ...(Object.keys(answerHeaders).length > 0 ? { headers: headers(answerHeaders) } : {}),
        content: { 'application/json': { schema, examples } },
      };
      return [String(status), response];
    }),
  );
}
