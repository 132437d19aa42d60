import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { replayHeaders } from '../shared/idempotency';
import { absoluteUrl } from '../shared/links';
import { CREATE_PET } from '../shared/operation-specs/create-pet';
import { petWriter } from '../shared/stores/pets';

const pets = petWriter();

/** POST /v1/pets — 201 with the stored Pet and its `Location` (on the host called); once per `Idempotency-Key`. */
export const handler = httpHandler(CREATE_PET, async ({ body, event, idempotency }) => {
  const { value: pet, replayed } = await pets.create(body, idempotency);
  return jsonResponse(201, pet, { location: absoluteUrl(event, `${event.rawPath}/${pet.id}`), ...replayHeaders(replayed) });
});
