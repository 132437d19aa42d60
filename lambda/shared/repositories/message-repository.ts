import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Caller } from '../caller';
import type { Message } from '../schemas/message';

export interface MessageRepository {
  enqueue(text: string, caller: Caller): Promise<Message>;
}

/** What the messages table keeps: the Message plus who sent it. */
type MessageItem = Message & { accountId: string; keyId: string };

export class DynamoMessageRepository implements MessageRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** ULIDs: sortable by creation time, 80 random bits per millisecond, no coordination needed. */
    private readonly nextId: () => string = ulid,
  ) {}

  async enqueue(text: string, caller: Caller): Promise<Message> {
    const message: Message = { id: this.nextId(), message: text, status: 'queued', createdAt: new Date().toISOString() };
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...message, accountId: caller.accountId, keyId: caller.keyId } satisfies MessageItem,
        // A repeated id must never overwrite another message.
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    );
    return message;
  }
}
