/**
 * When a failed attempt is tried again, and after how long. Throttling (429) and network failures back off
 * exponentially with full jitter, so that many clients throttled together do not come back together; an answer
 * that names its wait (`Retry-After`, as the service's 503 does) is waited for, up to `maxDelayMs`.
 */
import { GatewayError, NetworkError, ServiceError, type PetStoreError } from './errors.ts';
import type { OperationId } from './operations.ts';

export interface RetryOptions {
  /** Requests per call in all, the first one included (default 4); 1 turns retries off. */
  readonly maxAttempts?: number;
  /** The ceiling of the first backoff in milliseconds (default 100), doubling with each retry up to `maxDelayMs`. */
  readonly baseDelayMs?: number;
  /** The longest wait before a retry, in milliseconds (default 10 000); a longer `Retry-After` is cut to it. */
  readonly maxDelayMs?: number;
  /** Called before each retry, e.g. to log it. */
  readonly onRetry?: (retry: RetryEvent) => void;
}

export interface RetryEvent {
  readonly operation: OperationId;
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
  readonly error: PetStoreError;
}

export interface RetryPolicy extends Required<Omit<RetryOptions, 'onRetry'>> {
  readonly onRetry: RetryOptions['onRetry'];
  /** A number in [0, 1): `Math.random` but in tests. */
  readonly random: () => number;
}

/**
 * `transient` (reads, and creates with an `Idempotency-Key`): network failures, timeouts, 429, and 500, 502, 503
 * and 504. `throttled` (calls that must not repeat once they may have reached the service): only the gateway's
 * 429, answered before any function ran.
 */
export type RetryRule = 'transient' | 'throttled';

const RETRIED_SERVER_ERRORS = new Set([500, 502, 503, 504]);

export function resolveRetryPolicy(options: RetryOptions = {}, random: () => number = Math.random): RetryPolicy {
  const { maxAttempts = 4, baseDelayMs = 100, maxDelayMs = 10_000, onRetry } = options;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new TypeError(`retry.maxAttempts must be an integer from 1, got ${maxAttempts}`);
  for (const [name, value] of Object.entries({ baseDelayMs, maxDelayMs }))
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`retry.${name} must be a number of milliseconds from 0, got ${value}`);
  return { maxAttempts, baseDelayMs, maxDelayMs, onRetry, random };
}

export function isRetryable(error: PetStoreError, rule: RetryRule): boolean {
  if (error instanceof GatewayError && error.status === 429) return true;
  if (rule === 'throttled') return false;
  if (error instanceof NetworkError) return true;
  // The service's 429 (the account API's daily key limit) waits for a new day: never retried.
  return (error instanceof ServiceError || error instanceof GatewayError) && RETRIED_SERVER_ERRORS.has(error.status);
}

/** Full jitter: a random wait below `baseDelayMs · 2^(retry−1)`, itself at most `maxDelayMs`. `retry` counts from 1. */
export const backoffDelayMs = (retry: number, policy: RetryPolicy): number =>
  Math.floor(policy.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));

/** The wait before retry number `retry`: what the answer asked for (capped), else a backoff. */
export function retryDelayMs(error: PetStoreError, retry: number, policy: RetryPolicy): number {
  const asked = error instanceof ServiceError || error instanceof GatewayError ? error.retryAfterSeconds : undefined;
  return asked === undefined ? backoffDelayMs(retry, policy) : Math.min(asked * 1000, policy.maxDelayMs);
}

/** `Retry-After` in seconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3; a past one is 0), else undefined. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
