/** What both clients take besides their base URLs and credentials: timeouts, retries, and the `fetch` to use. */
import { resolveRetryPolicy, type RetryOptions } from './retry-policy.ts';

/** A `fetch` to send requests with: instrumentation, a proxy agent, a test double. */
export type FetchFunction = (request: Request) => Promise<Response>;

export interface TransportOptions {
  /** The longest wait for one answer, in milliseconds (default 10 000); a call may make several attempts. */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  /** The `fetch` to send requests with (default: the global `fetch`, looked up on each request). */
  readonly fetch?: FetchFunction;
}

/** Per-call options of every operation. */
export interface CallOptions {
  /** Aborts the call, a wait between retries included; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export type Transport = ReturnType<typeof resolveTransport>;

export function resolveTransport(options: TransportOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  return { timeoutMs, retry: resolveRetryPolicy(options.retry), fetch: options.fetch ?? ((request) => fetch(request)) };
}

/** A credential sent as `Authorization: Bearer …`: a header value cannot hold spaces or line breaks. */
export function checkBearerCredential(option: string, value: string): string {
  if (!/^[\x21-\x7e]+$/.test(value)) throw new TypeError(`${option} must be a non-empty token of visible ASCII characters`);
  return value;
}
