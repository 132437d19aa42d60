import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../caller';
import type { IdempotencyClaim } from '../idempotency';
import { newMessageId } from '../message-ids';
import type { Message } from '../schemas/message-response';
import { putIfAbsent, withWriteToken, type Tokened } from './put-if-absent';
import { writeOnce, type WriteOnceTarget, type Written } from './write-once';

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

export interface MessageRepositoryOptions {
  /** Draws a new message id (tests fix it). */
  readonly nextId?: () => string;
  /** The `Idempotency-Key` records (lib/tables.ts `idempotency`): an enqueue with a claim needs them. */
  readonly idempotencyTable?: string;
  /** The clock for `createdAt` (tests fix it). */
  readonly now?: () => Date;
}

export class DynamoMessageRepository implements MessageRepository {
  readonly #nextId: () => string;
  readonly #now: () => Date;
  readonly #once: WriteOnceTarget | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    { nextId = newMessageId, idempotencyTable, now = () => new Date() }: MessageRepositoryOptions = {},
  ) {
    this.#nextId = nextId;
    this.#now = now;
    this.#once = idempotencyTable ? { db, tableName, keyName: 'id', recordsTable: idempotencyTable } : undefined;
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
    if (claim) {
      if (!this.#once) throw new Error('DynamoMessageRepository was built without its idempotency table');
      const { value, replayed } = await writeOnce(this.#once, claim, () => this.#newItem(text, caller));
      return { value: toMessage(value), replayed };
    }
    // A taken id (two ULIDs alike: practically never) gets a fresh one; nothing is ever overwritten.
    for (let attempt = 1; attempt <= MAX_ENQUEUE_ATTEMPTS; attempt++) {
      const item = this.#newItem(text, caller);
      if ((await putIfAbsent(this.db, this.tableName, 'id', item)) === 'stored') return { value: toMessage(item), replayed: false };
    }
    throw new Error(`no free message id after ${MAX_ENQUEUE_ATTEMPTS} attempts`);
  }
}
