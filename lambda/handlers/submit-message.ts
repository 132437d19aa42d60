import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { DynamoMessageRepository } from '../shared/repositories/message-repository';
import { NoQueryParameters } from '../shared/schemas/common';
import { SubmitMessageRequest } from '../shared/schemas/message';

const messages = new DynamoMessageRepository(documentClient(), tableName('messages'));

/** POST /messages — 202 Accepted: the message is stored with status `queued`. */
export const handler = httpHandler(
  { operationId: 'submitMessage', input: { body: SubmitMessageRequest, query: NoQueryParameters }, idempotent: true },
  async ({ body, caller }) => jsonResponse(202, await messages.enqueue(body.message, caller)),
);
