import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { replayHeaders } from '../shared/idempotency';
import { SUBMIT_MESSAGE } from '../shared/operation-specs/submit-message';
import { messageQueue } from '../shared/stores/messages';

const messages = messageQueue();

/** POST /messages — 202 Accepted: the message is stored with status `queued`; once per `Idempotency-Key`. */
export const handler = httpHandler(SUBMIT_MESSAGE, async ({ body, caller, idempotency }) => {
  const { value: message, replayed } = await messages.enqueue(body.message, caller, idempotency);
  return jsonResponse(202, message, replayHeaders(replayed));
});
