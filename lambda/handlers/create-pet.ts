import { callerOf } from '#auth/require-caller';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { replayHeaders } from '#http/idempotency-key';
import { absoluteUrl } from '#http/absolute-url';
import { CREATE_PET } from '#contract/operations/create-pet';
import { petWriter } from '#data/stores/pets';
import { count } from '#runtime/metrics';

const pets = petWriter();

/** POST /v1/pets — 201 with the stored Pet and its `Location` (on the host called); once per `Idempotency-Key`. */
export const handler = httpHandler(CREATE_PET, callerOf, async ({ body, event, idempotency }) => {
  const { value: pet, replayed } = await pets.create(body, idempotency);
  if (!replayed) count('PetsCreated', { status: pet.status });
  return jsonResponse(201, pet, { location: absoluteUrl(event, `${event.rawPath}/${pet.id}`), ...replayHeaders(replayed) });
});
