import { callerOf } from '#auth/require-caller';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { replayHeaders } from '#http/idempotency-key';
import { SUBMIT_MESSAGE } from '#contract/operations/submit-message';
import { messageQueue } from '#data/stores/messages';
import { count } from '#runtime/metrics';

const messages = messageQueue();

/** POST /messages — 202 Accepted: the message is stored with status `queued`; once per `Idempotency-Key`. */
export const handler = httpHandler(SUBMIT_MESSAGE, callerOf, async ({ body, caller, idempotency }) => {
  const { value: message, replayed } = await messages.enqueue(body.message, caller, idempotency);
  if (!replayed) count('MessagesQueued', {});
  return jsonResponse(202, message, replayHeaders(replayed));
});
