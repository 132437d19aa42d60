import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../caller';
import { newMessageId } from '../message-ids';
import type { Message } from '../schemas/message-response';
import { putIfAbsent } from './put-if-absent';

export interface MessageRepository {
  enqueue(text: string, caller: Caller): Promise<Message>;
}

const MAX_ENQUEUE_ATTEMPTS = 3;

/** What the messages table keeps: the Message plus who sent it. */
type MessageItem = Message & { accountId: string; keyId: string };

export class DynamoMessageRepository implements MessageRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly nextId: () => string = newMessageId,
  ) {}

  async enqueue(text: string, caller: Caller): Promise<Message> {
    // A taken id (two ULIDs alike: practically never) gets a fresh one; nothing is ever overwritten.
    for (let attempt = 1; attempt <= MAX_ENQUEUE_ATTEMPTS; attempt++) {
      const message: Message = { id: this.nextId(), message: text, status: 'queued', createdAt: new Date().toISOString() };
      const item: MessageItem = { ...message, accountId: caller.accountId, keyId: caller.keyId };
      if ((await putIfAbsent(this.db, this.tableName, 'id', item)) === 'stored') return message;
    }
    throw new Error(`no free message id after ${MAX_ENQUEUE_ATTEMPTS} attempts`);
  }
}
