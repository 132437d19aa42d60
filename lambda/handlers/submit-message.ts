import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { httpHandler } from '../shared/http-handler';
import { idempotentWrites } from '../shared/middleware/idempotent-writes';
import { jsonResponse } from '../shared/http-response';
import { SUBMIT_MESSAGE } from '../shared/operation-specs/submit-message';
import { DynamoMessageRepository } from '../shared/repositories/message-repository';

const messages = new DynamoMessageRepository(documentClient(), tableName('messages'));

/** POST /messages — 202 Accepted: the message is stored with status `queued`. */
export const handler = httpHandler(
  SUBMIT_MESSAGE,
  async ({ body, caller }) => jsonResponse(202, await messages.enqueue(body.message, caller)),
  idempotentWrites,
);
