/**
 * One call: attempts, each bounded by the client's timeout and the caller's `AbortSignal`, retried as the policy
 * allows. It ends with the success, or throws the last attempt's `PetStoreError`, or, when the caller aborts, the
 * signal's reason (as `fetch` does).
 */
import { GatewayError, NetworkError, ServiceError, type FailedCall, type PetStoreError } from './errors.ts';
import type { OperationId } from './operations.ts';
import { isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy, type RetryRule } from './retry-policy.ts';

/** What one request gave, as openapi-fetch hands it over: `data` on success, `error` (the parsed body) otherwise. */
export interface Outcome<T> {
  readonly response: Response;
  readonly data?: T;
  readonly error?: unknown;
}

export type Success<T> = Required<Pick<Outcome<T>, 'data' | 'response'>>;

export interface SendSettings {
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly rule: RetryRule;
  readonly signal?: AbortSignal | undefined;
  /** The create's `Idempotency-Key`, which its errors carry. */
  readonly idempotencyKey?: string | undefined;
}

/** @param attempt sends the request once; it must pass `signal` on to `fetch` */
export async function send<T>(
  operation: OperationId,
  attempt: (signal: AbortSignal) => Promise<Outcome<T>>,
  settings: SendSettings,
): Promise<Success<T>> {
  for (let attempts = 1; ; attempts++) {
    settings.signal?.throwIfAborted();
    const result = await attemptOnce({ operation, attempts, idempotencyKey: settings.idempotencyKey }, attempt, settings);
    if (!(result instanceof Error)) return result;
    if (attempts >= settings.retry.maxAttempts || !isRetryable(result, settings.rule)) throw result;
    const delayMs = retryDelayMs(result, attempts, settings.retry);
    settings.retry.onRetry?.({ operation, attempt: attempts, delayMs, error: result });
    await sleep(delayMs, settings.signal);
  }
}

async function attemptOnce<T>(
  call: FailedCall,
  attempt: (signal: AbortSignal) => Promise<Outcome<T>>,
  { timeoutMs, signal }: SendSettings,
): Promise<Success<T> | PetStoreError> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const abort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const { response, data, error } = await attempt(controller.signal);
    // A success's body is what the document gives for it; `undefined` only where it gives none (204).
    return response.ok ? { data: data as T, response } : errorFromAnswer(call, response, error);
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    return new NetworkError(call, { timedOut, timeoutMs, cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;

/**
 * The service's own body `{"code","message","status"}` makes a `ServiceError`; anything else (API Gateway's
 * `{"message": …}`, which comes without a Content-Type, or no JSON at all) a `GatewayError`.
 * @param body the answer's body, parsed as JSON when it was JSON (as openapi-fetch hands it over), else its text
 */
function errorFromAnswer(call: FailedCall, response: Response, body: unknown): ServiceError | GatewayError {
  const details = {
    status: response.status,
    requestId: response.headers.get('apigw-requestid') ?? undefined,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
  };
  if (isRecord(body) && typeof body.code === 'string' && typeof body.message === 'string' && typeof body.status === 'number')
    return new ServiceError(call, body.code, body.message, details);
  // What the gateway said: its `message`, else the start of whatever text came, else the status line's reason.
  const message =
    isRecord(body) && typeof body.message === 'string'
      ? body.message
      : typeof body === 'string' && body.trim() !== ''
        ? body.trim().slice(0, 200)
        : response.statusText || 'no body';
  return new GatewayError(call, message, details);
}

/** Waits `ms`, or less once the signal aborts (the caller then throws its reason). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, signal?.aborted ? 0 : ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
