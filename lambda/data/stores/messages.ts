import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoMessageRepository } from '../repositories/message-repository';

/** Messages to enqueue, once per `Idempotency-Key` (a store: see ./pets.ts). */
export const messageQueue = (): DynamoMessageRepository =>
  new DynamoMessageRepository(documentClient(), tableName('messages'), { idempotencyTable: tableName('idempotency') });
