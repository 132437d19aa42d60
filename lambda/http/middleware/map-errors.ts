import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { DependencyUnavailableError, IdempotencyKeyReusedError } from '#contract/domain-errors';
import { ApiError, idempotencyKeyReused, serviceUnavailable } from '#contract/errors';
import { jsonResponse, type HttpResponse } from '../responses';
import { log, type LogLevel } from '#runtime/logger';
import { currentScope } from '#runtime/request-scope';

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
]);

interface SdkErrorShape {
  name?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/**
 * DynamoDB throttled, failing or out of reach after the SDK's own retries: the client may retry
 * later. Judged from the SDK's error shape rather than `instanceof`, because transport errors may
 * come from another realm (and then arrive wrapped, with only `$metadata` left to tell).
 */
function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $fault, $metadata } = error as SdkErrorShape;
  if (typeof name === 'string' && THROTTLING_ERRORS.has(name)) return true;
  if ($fault === 'server') return true;
  // The SDK tried (it recorded attempts) but never got an HTTP answer: a transport failure.
  return $metadata !== undefined && $metadata.httpStatusCode === undefined;
}

export interface Classified {
  readonly apiError: ApiError;
  /** What to log about it, if anything (failures on our side, never the client's mistakes). */
  readonly log?: { readonly level: LogLevel; readonly message: string; readonly fields: Record<string, unknown> };
}

/** `where` identifies the request in logs (operation and request ids), never its headers or body. */
export function classify(error: unknown, where: Record<string, unknown> = {}): Classified {
  if (error instanceof ApiError) return { apiError: error };
  if (error instanceof IdempotencyKeyReusedError) return { apiError: idempotencyKeyReused() };
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name) : typeof error;
  if (error instanceof DependencyUnavailableError || isUnavailable(error)) {
    return {
      apiError: serviceUnavailable(),
      log: { level: 'warn', message: 'dependency unavailable', fields: { ...where, errorName: name } },
    };
  }
  return {
    apiError: new ApiError(500, 'internal_error', 'internal error'),
    log: { level: 'error', message: 'unhandled error', fields: { ...where, error: error instanceof Error ? error : String(error) } },
  };
}

export function errorResponse(error: ApiError): HttpResponse {
  return jsonResponse(error.status, { code: error.code, message: error.message, status: error.status }, { ...error.headers });
}

/**
 * Registered last so that, on the way out, it runs first: every error leaves as the spec's body.
 * Log lines name the operation and both request ids — never headers, keys or bodies.
 */
export const mapErrors = (operation: string): MiddlewareObj<APIGatewayProxyEventV2> => ({
  onError: async (request) => {
    const where = { operation, requestId: request.event.requestContext.requestId, awsRequestId: request.context.awsRequestId };
    const { apiError, log: entry } = classify(request.error, where);
    request.response = errorResponse(apiError);
    // For the request's metrics and INFO line (lambda/runtime/observe.ts): its Errors by Code.
    const scope = currentScope();
    if (scope) scope.code = apiError.code;
    // Awaited: a line written after the invocation returns could be lost when Lambda freezes it.
    if (entry) await log(entry.level, entry.message, entry.fields);
  },
});
