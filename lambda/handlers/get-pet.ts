import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { GET_PET } from '../shared/operation-specs/get-pet';
import { DynamoPetRepository, type PetRepository } from '../shared/repositories/pet-repository';

/** GET /v1/pets/{petId} (deprecated, see GET_PET_DEPRECATION_HEADERS) — the pet, or 404. */
export const getPetHandler = (pets: PetRepository) =>
  httpHandler(GET_PET, async ({ path }) => {
    const pet = await pets.get(path.petId);
    if (!pet) throw notFound(`no pet has the id ${path.petId}`);
    return jsonResponse(200, pet);
  });

export const handler = getPetHandler(new DynamoPetRepository(documentClient(), tableName('pets')));
