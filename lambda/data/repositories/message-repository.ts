import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '#contract/caller';
import { newMessageId } from '../message-ids';
import type { Message } from '#contract/schemas/message-response';
import { withWriteToken } from './conditional-put';
import { creator, type CreateOptions, type IdempotencyClaim, type Written } from './write-once';

/** A taken id (two ULIDs alike: practically never) gets a fresh one. */
const MAX_ENQUEUE_ATTEMPTS = 3;

/** The stored message without who sent it (accountId, keyId) and its write token. */
const toMessage = (item: Record<string, unknown>): Message => {
  const { id, message, status, createdAt } = item as Message;
  return { id, message, status, createdAt };
};

/** The queue of submitted messages, as the handlers see it. */
export class DynamoMessageRepository {
  readonly #create: ReturnType<typeof creator<string>>;

  constructor(db: DynamoDBDocumentClient, tableName: string, options: CreateOptions<string> = {}) {
    this.#create = creator(db, tableName, newMessageId, options, { maxAttempts: MAX_ENQUEUE_ATTEMPTS, keyDescription: 'message id' });
  }

  /** Stores the message as `queued`; with a claim (`Idempotency-Key`), once per claim, like DynamoPetRepository.create. */
  async enqueue(message: string, { accountId, keyId }: Caller, claim?: IdempotencyClaim): Promise<Written<Message>> {
    const { value, replayed } = await this.#create(
      (id, createdAt) => withWriteToken({ id, message, status: 'queued', createdAt, accountId, keyId }),
      claim,
    );
    return { value: toMessage(value), replayed };
  }
}
