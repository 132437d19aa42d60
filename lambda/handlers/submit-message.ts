import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { replayMarked } from '../shared/idempotency';
import { SUBMIT_MESSAGE } from '../shared/operation-specs/submit-message';
import { DynamoMessageRepository } from '../shared/repositories/message-repository';

const messages = new DynamoMessageRepository(documentClient(), tableName('messages'), { idempotencyTable: tableName('idempotency') });

/** POST /messages — 202 Accepted: the message is stored with status `queued`; once per `Idempotency-Key`. */
export const handler = httpHandler(SUBMIT_MESSAGE, async ({ body, caller, idempotency }) =>
  replayMarked(await messages.enqueueOnce(body.message, caller, (message) => jsonResponse(202, message), idempotency)),
);
