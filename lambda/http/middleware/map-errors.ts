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

/** Throttled, failing or out of reach after the SDK's retries, judged by shape: transport errors may come wrapped. */
function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $fault, $metadata } = error as SdkErrorShape;
  if (typeof name === 'string' && THROTTLING_ERRORS.has(name)) return true;
  if ($fault === 'server') return true;
  // The SDK tried (it recorded attempts) but never got an HTTP answer: a transport failure.
  return $metadata !== undefined && $metadata.httpStatusCode === undefined;
}

interface Classified {
  readonly apiError: ApiError;
  /** What to log about it, if anything (failures on our side, never the client's mistakes). */
  readonly log?: { readonly level: LogLevel; readonly message: string; readonly fields: Record<string, unknown> };
}

/** A log line names its request through the logger's request scope, never by its headers or body. */
export function classify(error: unknown): Classified {
  if (error instanceof ApiError) return { apiError: error };
  if (error instanceof IdempotencyKeyReusedError) return { apiError: idempotencyKeyReused() };
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name) : typeof error;
  if (error instanceof DependencyUnavailableError || isUnavailable(error)) {
    return {
      apiError: serviceUnavailable(),
      log: { level: 'warn', message: 'dependency unavailable', fields: { errorName: name } },
    };
  }
  return {
    apiError: new ApiError(500, 'internal_error', 'internal error'),
    log: { level: 'error', message: 'unhandled error', fields: { error: error instanceof Error ? error : String(error) } },
  };
}

function errorResponse(error: ApiError): HttpResponse {
  return jsonResponse(error.status, { code: error.code, message: error.message, status: error.status }, { ...error.headers });
}

/** Registered last, so it runs first on the way out: every error leaves as the spec's body. */
export const mapErrors = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  onError: async (request) => {
    const { apiError, log: entry } = classify(request.error);
    request.response = errorResponse(apiError);
    const scope = currentScope();
    if (scope) scope.errorCode = apiError.code;
    // Awaited: a line written after the invocation returns could be lost when Lambda freezes it.
    if (entry) await log(entry.level, entry.message, entry.fields);
  },
});
