/**
 * One call: attempts, each bounded by the client's timeout and the caller's `AbortSignal`, retried as the
 * policy allows. A call ends with the success's body, or throws the last attempt's `PetStoreError`, or, when the
 * caller aborts, the signal's reason (as `fetch` does).
 */
import { NetworkError, type FailedCall, type PetStoreError } from './errors.ts';
import { errorFromAnswer } from './error-answer.ts';
import type { OperationId } from './operations.ts';
import { isRetryable, retryDelayMs, type RetryPolicy, type RetryRule } from './retry-policy.ts';

/** What one request gave, as openapi-fetch hands it over: `data` on success, `error` (the parsed body) otherwise. */
export interface Outcome<T> {
  readonly response: Response;
  readonly data?: T;
  readonly error?: unknown;
}

export interface Success<T> {
  readonly data: T;
  readonly response: Response;
}

export interface SendSettings {
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly rule: RetryRule;
  readonly signal?: AbortSignal | undefined;
  /** The create's `Idempotency-Key`, which its errors carry. */
  readonly idempotencyKey?: string | undefined;
}

/**
 * @param attempt sends the request once; it must pass `signal` on to `fetch`
 */
export async function send<T>(
  operation: OperationId,
  attempt: (signal: AbortSignal) => Promise<Outcome<T>>,
  settings: SendSettings,
): Promise<Success<T>> {
  for (let attempts = 1; ; attempts++) {
    settings.signal?.throwIfAborted();
    const result = await attemptOnce({ operation, attempts, idempotencyKey: settings.idempotencyKey }, attempt, settings);
    if (!isFailure(result)) return result;
    if (attempts >= settings.retry.maxAttempts || !isRetryable(result, settings.rule)) throw result;
    const delayMs = retryDelayMs(result, attempts, settings.retry);
    settings.retry.onRetry?.({ operation, attempt: attempts, delayMs, error: result });
    await sleep(delayMs, settings.signal);
  }
}

const isFailure = <T>(result: Success<T> | PetStoreError): result is PetStoreError => result instanceof Error;

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
    const outcome = await attempt(controller.signal);
    // A success's body is what the document gives for it; `undefined` only where it gives none (204).
    if (outcome.response.ok) return { data: outcome.data as T, response: outcome.response };
    return errorFromAnswer(call, outcome.response, outcome.error);
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    return new NetworkError(call, { timedOut, timeoutMs, cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/** Waits `ms`, or less once the signal aborts (the caller then throws its reason). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
