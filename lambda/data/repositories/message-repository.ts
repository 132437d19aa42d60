import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '#contract/caller';
import { newMessageId } from '../message-ids';
import type { Message } from '#contract/schemas/message-response';
import { withWriteToken, type Tokened } from './conditional-put';
import { createItem, type CreateOptions, type CreateTarget, type IdempotencyClaim, type Written } from './write-once';

/** The queue of submitted messages, as the handlers see it. */
export interface MessageRepository {
  /** Stores the message as `queued`; with a claim (`Idempotency-Key`), once per claim, like PetRepository.create. */
  enqueue(text: string, caller: Caller, claim?: IdempotencyClaim): Promise<Written<Message>>;
}

const MAX_ENQUEUE_ATTEMPTS = 3;

/** What the messages table keeps: the Message plus who sent it. */
type MessageItem = Tokened<Message & { accountId: string; keyId: string }>;

const toMessage = (item: Record<string, unknown>): Message => {
  const { id, message, status, createdAt } = item as Message;
  return { id, message, status, createdAt };
};

export class DynamoMessageRepository implements MessageRepository {
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

  #newItem(text: string, caller: Caller): MessageItem {
    return withWriteToken({
      id: this.#nextId(),
      message: text,
      status: 'queued',
      createdAt: this.#now().toISOString(),
      accountId: caller.accountId,
      keyId: caller.keyId,
    });
  }

  async enqueue(text: string, caller: Caller, claim?: IdempotencyClaim): Promise<Written<Message>> {
    // A taken id (two ULIDs alike: practically never) gets a fresh one.
    const limits = { maxAttempts: MAX_ENQUEUE_ATTEMPTS, keyDescription: 'message id' };
    const { value, replayed } = await createItem(this.#target, () => this.#newItem(text, caller), claim, limits);
    return { value: toMessage(value), replayed };
  }
}
