/**
 * What a call can fail with, all `PetStoreError`s: the service's own error answer (`ServiceError`), an answer from
 * what stands in front of it (`GatewayError`), and no usable answer at all (`NetworkError`).
 */
import { OPERATION_ERROR_CODES, type ErrorCodeOf, type OperationId } from './operations.ts';

export interface FailedCall {
  /** The operation, named as in the OpenAPI documents (`createPet`, `listAccountKeys`, …). */
  readonly operation: OperationId;
  /** How many requests the call sent, retries included. */
  readonly attempts: number;
  /**
   * The `Idempotency-Key` of a `createPet` or `submitMessage`. A failed create may still have been stored: call it
   * again with `{ idempotencyKey }` set to this, and the same body, to store it exactly once.
   */
  readonly idempotencyKey?: string | undefined;
}

/** Every failure a call reports; its `message` is what the service or the gateway said, or what went wrong. */
export abstract class PetStoreError extends Error implements FailedCall {
  readonly operation: OperationId;
  readonly attempts: number;
  readonly idempotencyKey: string | undefined;

  protected constructor(call: FailedCall, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.operation = call.operation;
    this.attempts = call.attempts;
    this.idempotencyKey = call.idempotencyKey;
  }
}

export interface AnswerDetails {
  readonly status: number;
  /** API Gateway's id of the request (`apigw-requestid`): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The wait the answer asked for (`Retry-After`), in seconds, when it named one. */
  readonly retryAfterSeconds: number | undefined;
}

/** The service's own error answer `{"code","message","status"}`; narrow `code` with `isServiceError(error, operation)`. */
export class ServiceError extends PetStoreError implements AnswerDetails {
  override readonly name = 'ServiceError';
  readonly status: number;
  /** Machine-readable and stable, e.g. `not_found`; see `OPERATION_ERROR_CODES`. `message` is the service's text. */
  readonly code: string;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(call: FailedCall, code: string, message: string, details: AnswerDetails) {
    super(call, message);
    this.code = code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * An answer the service did not give: API Gateway's own `{"message": …}` (429 when throttled, 413 for a body over
 * its limits, 500 when a function failed, 401 for a bad access token on the account API), or any other such body.
 */
export class GatewayError extends PetStoreError implements AnswerDetails {
  override readonly name = 'GatewayError';
  readonly status: number;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(call: FailedCall, message: string, details: AnswerDetails) {
    super(call, message);
    this.status = details.status;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * No answer could be read (refused, reset, unresolved, cut off, or not within `timeoutMs`: `timedOut`); `cause` is
 * what `fetch` threw. A create that ends like this may still have been stored: see `idempotencyKey`.
 */
export class NetworkError extends PetStoreError {
  override readonly name = 'NetworkError';
  /** True when the last attempt got no answer within the client's `timeoutMs`. */
  readonly timedOut: boolean;

  constructor(call: FailedCall, failure: { readonly timedOut: boolean; readonly timeoutMs: number; readonly cause: unknown }) {
    super(call, failure.timedOut ? `no answer within ${failure.timeoutMs} ms` : describe(failure.cause), {
      cause: failure.cause,
    });
    this.timedOut = failure.timedOut;
  }
}

/** An error's message, whatever realm made it (`instanceof Error` fails across realms, e.g. in a vm context). */
const messageOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string' ? value.message : undefined;

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` rather than just `fetch failed`. */
function describe(cause: unknown): string {
  const message = messageOf(cause);
  if (message === undefined) return String(cause);
  const inner = typeof cause === 'object' && cause !== null && 'cause' in cause ? messageOf(cause.cause) : undefined;
  return inner ? `${message}: ${inner}` : message;
}

/** A `ServiceError` of one operation, with one of the codes that operation can answer. */
export type ServiceErrorOf<Operation extends OperationId> = ServiceError & {
  readonly operation: Operation;
  readonly code: ErrorCodeOf<Operation>;
};

/**
 * Whether `error` is the service's error answer; with an operation, that operation's with a code this SDK knows it
 * to answer (`if (isServiceError(error, 'getPet') && error.code === 'not_found') …`). A code added to the service
 * later fails the second form; it is still a `ServiceError`, with `code` as a string.
 */
export function isServiceError(error: unknown): error is ServiceError;
export function isServiceError<Operation extends OperationId>(error: unknown, operation: Operation): error is ServiceErrorOf<Operation>;
export function isServiceError(error: unknown, operation?: OperationId): boolean {
  const known: readonly string[] | undefined = operation && OPERATION_ERROR_CODES[operation];
  return error instanceof ServiceError && (known === undefined || (error.operation === operation && known.includes(error.code)));
}
