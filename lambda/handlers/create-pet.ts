import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { replayMarked } from '../shared/idempotency';
import { absoluteUrl } from '../shared/links';
import { CREATE_PET } from '../shared/operation-specs/create-pet';
import { DynamoPetRepository } from '../shared/repositories/pet-repository';

const pets = new DynamoPetRepository(documentClient(), tableName('pets'), { idempotencyTable: tableName('idempotency') });

/** POST /v1/pets — 201 with the stored Pet and its `Location`; once per `Idempotency-Key`. */
export const handler = httpHandler(CREATE_PET, async ({ body, event, idempotency }) =>
  replayMarked(
    await pets.createOnce(body, (pet) => jsonResponse(201, pet, { location: absoluteUrl(event, `${event.rawPath}/${pet.id}`) }), idempotency),
  ),
);
