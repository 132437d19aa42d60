import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../caller';
import type { IdempotencyClaim } from '../idempotency';
import { newMessageId } from '../message-ids';
import type { Message } from '../schemas/message-response';
import { putIfAbsent, withWriteToken, type Tokened } from './put-if-absent';
import { writeOnce, type WriteOnceTarget, type Written } from './write-once';

export interface MessageRepository {
  enqueue(text: string, caller: Caller): Promise<Message>;
  /** Enqueues once per claim (`Idempotency-Key`), like PetRepository.createOnce. */
  enqueueOnce<A>(text: string, caller: Caller, answerFor: (message: Message) => A, claim: IdempotencyClaim | undefined): Promise<Written<A>>;
}

const MAX_ENQUEUE_ATTEMPTS = 3;

/** What the messages table keeps: the Message plus who sent it. */
type MessageItem = Tokened<Message & { accountId: string; keyId: string }>;

export interface MessageRepositoryOptions {
  /** Draws a new message id (tests fix it). */
  readonly nextId?: () => string;
  /** The `Idempotency-Key` records (lib/tables.ts `idempotency`): enqueueOnce with a claim needs them. */
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

  #newItem(text: string, caller: Caller): { message: Message; item: MessageItem } {
    const message: Message = { id: this.#nextId(), message: text, status: 'queued', createdAt: this.#now().toISOString() };
    return { message, item: withWriteToken({ ...message, accountId: caller.accountId, keyId: caller.keyId }) };
  }

  async enqueue(text: string, caller: Caller): Promise<Message> {
    // A taken id (two ULIDs alike: practically never) gets a fresh one; nothing is ever overwritten.
    for (let attempt = 1; attempt <= MAX_ENQUEUE_ATTEMPTS; attempt++) {
      const { message, item } = this.#newItem(text, caller);
      if ((await putIfAbsent(this.db, this.tableName, 'id', item)) === 'stored') return message;
    }
    throw new Error(`no free message id after ${MAX_ENQUEUE_ATTEMPTS} attempts`);
  }

  async enqueueOnce<A>(text: string, caller: Caller, answerFor: (message: Message) => A, claim: IdempotencyClaim | undefined): Promise<Written<A>> {
    if (!claim) return { answer: answerFor(await this.enqueue(text, caller)), replayed: false };
    if (!this.#once) throw new Error('DynamoMessageRepository was built without its idempotency table');
    return writeOnce(this.#once, claim, () => {
      const { message, item } = this.#newItem(text, caller);
      return { item, answer: answerFor(message) };
    });
  }
}
