import { tableName } from '../shared/config';
import { documentClient } from '../shared/dynamodb-client';
import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { DynamoPetRepository } from '../shared/repositories/pet-repository';
import { NoQueryParameters } from '../shared/schemas/common';
import { GetPetPath } from '../shared/schemas/pet';

const pets = new DynamoPetRepository(documentClient(), tableName('pets'));

/**
 * Deprecated since the first release (RFC 9745 `Deprecation` as a structured-field date) and removed
 * on 5 December 2030 (RFC 8594 `Sunset`); the replacement is GET /v1/pets with `status`.
 */
export const GET_PET_DEPRECATION_HEADERS = {
  deprecation: '@1767225600', // 2026-01-01T00:00:00Z
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
} as const;

/** GET /v1/pets/{petId} (deprecated) — the pet, or 404. */
export const handler = httpHandler(
  { operationId: 'getPet', input: { path: GetPetPath, query: NoQueryParameters }, headers: GET_PET_DEPRECATION_HEADERS },
  async ({ path, event }) => {
    const pet = path.petId === null ? undefined : await pets.get(path.petId);
    if (!pet) throw notFound(`no pet has the id ${event.pathParameters?.petId ?? ''}`);
    return jsonResponse(200, pet);
  },
);
