/** Error answers, as the middleware stack produces them (lambda/http/). */
import type { ErrorCode } from '#contract/errors';
import { ALL_ERROR_CODES as ERROR_CODES } from '#contract/schemas/error';
import { GATEWAY_ANSWERS, type GatewayAnswerStatus } from '#shared/gateway-answers';
import { errorCodesOf, takesBody, type OperationDocs } from './operation-docs';
import { headers, type HeaderUse } from './headers';
import type { Example, JsonSchema, Response } from './types';

/** The service's error body and API Gateway's own, as a document's schemas. */
export type ErrorSchemas = { readonly error: JsonSchema; readonly gateway: JsonSchema };

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
