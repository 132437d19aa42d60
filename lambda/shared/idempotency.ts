import type { HttpResponse } from './http-response';
import { IDEMPOTENCY_WINDOW_SECONDS, type OperationSpec } from './operation-spec';
import type { Written } from './repositories/write-once';

/** What an `Idempotency-Key` request claims: its record's key and the request it stands for. */
export interface IdempotencyClaim {
  /** Scoped to the operation and the account: the same key elsewhere is another request. */
  readonly recordKey: string;
  /** The validated input, hashed: the same key with another body is refused (422). */
  readonly payloadHash: string;
  readonly windowSeconds: number;
}

// Every handler's module graph reaches this file (http-handler.ts), and the not-found function loads
// nothing else of node:crypto at start: a top-level import cost it ~8 ms of cold start (bench/ part 1).
const sha256 = (text: string): string => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('base64url');

/** `body` is the validated body: zod builds it in its schema's key order, so key order does not matter. */
export function claimFor(operationId: OperationSpec['operationId'], accountId: string, idempotencyKey: string, body: unknown): IdempotencyClaim {
  return {
    recordKey: `${operationId}#${sha256(JSON.stringify([accountId, idempotencyKey]))}`,
    payloadHash: sha256(JSON.stringify(body) ?? ''),
    windowSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  };
}

/** The answer to send, marked when it is an earlier request's. */
export const replayMarked = ({ answer, replayed }: Written<HttpResponse>): HttpResponse =>
  replayed ? { ...answer, headers: { ...answer.headers, 'idempotent-replayed': 'true' } } : answer;
