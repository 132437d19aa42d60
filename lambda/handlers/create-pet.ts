import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { httpHandler } from '../shared/http-handler';
import { idempotentWrites } from '../shared/middleware/idempotent-writes';
import { jsonResponse } from '../shared/http-response';
import { absoluteUrl } from '../shared/links';
import { CREATE_PET } from '../shared/operation-specs/create-pet';
import { DynamoPetRepository } from '../shared/repositories/pet-repository';

const pets = new DynamoPetRepository(documentClient(), tableName('pets'));

/** POST /v1/pets — 201 with the stored Pet and its `Location`. */
export const handler = httpHandler(CREATE_PET, async ({ body, event }) => {
  const pet = await pets.create(body);
  return jsonResponse(201, pet, { location: absoluteUrl(event, `${event.rawPath}/${pet.id}`) });
}, idempotentWrites);
