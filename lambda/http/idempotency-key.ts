import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from '#contract/caller';
import { invalidRequest } from '#contract/errors';
import type { IdempotencyClaim } from '#data/repositories/write-once';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS, type OperationSpec } from '#contract/operation-spec';

// node:crypto on first use: the not-found function, which reaches this file, needs nothing else of it.
const sha256 = (text: string): string => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('base64url');

/** `body` is the validated body: zod builds it in its schema's key order, so key order does not matter. */
export function claimFor(
  operationId: OperationSpec['operationId'],
  accountId: string,
  idempotencyKey: string,
  body: unknown,
): IdempotencyClaim {
  return {
    recordKey: `${operationId}#${sha256(JSON.stringify([accountId, idempotencyKey]))}`,
    payloadHash: sha256(JSON.stringify(body ?? null)),
    windowSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  };
}

/** The claim of a request with `Idempotency-Key`, made after validation: an invalid request never uses its key up. */
export function claimOf(
  event: APIGatewayProxyEventV2,
  operationId: OperationSpec['operationId'],
  caller: Pick<Caller, 'accountId'>,
  body: unknown,
): IdempotencyClaim | undefined {
  const key = event.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw invalidRequest("header 'Idempotency-Key' must be one value of 1 to 255 visible ASCII characters without commas (sent once)");
  }
  return claimFor(operationId, caller.accountId, key, body);
}

/** Marks an answer that repeats an earlier request's write (nothing new was stored). */
export const replayHeaders = (replayed: boolean): Record<string, string> => (replayed ? { 'idempotent-replayed': 'true' } : {});
