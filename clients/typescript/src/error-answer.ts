/**
 * Turns an answer that is not a success into its error: the service's own body `{"code","message","status"}`
 * makes a `ServiceError`, anything else (API Gateway's `{"message": …}`, which comes without a Content-Type, or a
 * body no JSON at all) a `GatewayError`.
 */
import { GatewayError, ServiceError, type AnswerDetails, type FailedCall } from './errors.ts';
import { parseRetryAfter } from './retry-policy.ts';

interface ServiceErrorBody {
  readonly code: string;
  readonly message: string;
  readonly status: number;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;

const isServiceErrorBody = (body: unknown): body is ServiceErrorBody =>
  isRecord(body) && typeof body.code === 'string' && typeof body.message === 'string' && typeof body.status === 'number';

/** What the gateway said: its `message`, else the start of whatever text came, else the status line's reason. */
function gatewayMessage(body: unknown, response: Response): string {
  if (isRecord(body) && typeof body.message === 'string') return body.message;
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 200);
  return response.statusText || 'no body';
}

/**
 * @param body the answer's body, parsed as JSON when it was JSON (as openapi-fetch hands it over), else its text
 */
export function errorFromAnswer(call: FailedCall, response: Response, body: unknown): ServiceError | GatewayError {
  const details: AnswerDetails = {
    status: response.status,
    requestId: response.headers.get('apigw-requestid') ?? undefined,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
  };
  return isServiceErrorBody(body)
    ? new ServiceError(call, body.code, body.message, details)
    : new GatewayError(call, gatewayMessage(body, response), details);
}
