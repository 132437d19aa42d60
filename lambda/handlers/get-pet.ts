import { notFound } from '#contract/errors';
import { callerOf } from '#auth/require-caller';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { GET_PET } from '#contract/operations/get-pet';
import { petReader } from '#data/stores/pets';

const pets = petReader();

/** GET /v1/pets/{petId} (deprecated, see GET_PET_DEPRECATION_HEADERS) — the pet, or 404. */
export const handler = httpHandler(GET_PET, callerOf, async ({ path }) => {
  const pet = await pets.get(path.petId);
  if (!pet) throw notFound(`no pet has the id ${path.petId}`);
  return jsonResponse(200, pet);
});
