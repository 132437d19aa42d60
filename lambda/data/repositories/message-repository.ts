import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '#contract/caller';
import { newMessageId } from '../message-ids';
import type { Message } from '#contract/schemas/message-response';
import { withWriteToken } from './conditional-put';
import { createItem, type CreateOptions, type CreateTarget, type IdempotencyClaim, type Written } from './write-once';

/** A taken id (two ULIDs alike: practically never) gets a fresh one. */
const MAX_ENQUEUE_ATTEMPTS = 3;

/** The stored message without who sent it (accountId, keyId) and its write token. */
const toMessage = (item: Record<string, unknown>): Message => {
  const { id, message, status, createdAt } = item as Message;
  return { id, message, status, createdAt };
};

/** The queue of submitted messages, as the handlers see it. */
export class DynamoMessageRepository {
  readonly #nextId: () => string;
  readonly #now: () => Date;
  readonly #target: CreateTarget;

  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    { nextId = newMessageId, idempotencyTable, now = () => new Date() }: CreateOptions<string> = {},
  ) {
    this.#nextId = nextId;
    this.#now = now;
    this.#target = { db, tableName, keyName: 'id', recordsTable: idempotencyTable };
  }

  /** Stores the message as `queued`; with a claim (`Idempotency-Key`), once per claim, like DynamoPetRepository.create. */
  async enqueue(text: string, caller: Caller, claim?: IdempotencyClaim): Promise<Written<Message>> {
    const prepare = () =>
      withWriteToken({
        id: this.#nextId(),
        message: text,
        status: 'queued',
        createdAt: this.#now().toISOString(),
        accountId: caller.accountId,
        keyId: caller.keyId,
      });
    const limits = { maxAttempts: MAX_ENQUEUE_ATTEMPTS, keyDescription: 'message id' };
    const { value, replayed } = await createItem(this.#target, prepare, claim, limits);
    return { value: toMessage(value), replayed };
  }
}
