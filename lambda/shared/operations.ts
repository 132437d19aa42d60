/**
 * Every operation's spec in one table, for the OpenAPI document (openapi/) and the tests. Each
 * spec lives in its own module (operation-specs/) and each handler imports only its own, so a
 * function's bundle builds only the schemas its operation validates (`npm run bench`, part 1); this table
 * imports them all and is never imported by Lambda code.
 */
import type { PublicOperationId } from '../../lib/routes';
import type { OperationSpec } from './operation-spec';
import { CREATE_PET } from './operation-specs/create-pet';
import { GET_PET } from './operation-specs/get-pet';
import { LIST_PETS } from './operation-specs/list-pets';
import { SUBMIT_MESSAGE } from './operation-specs/submit-message';

export { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS, type InputSchemas, type OperationSpec } from './operation-spec';
export { GET_PET_DEPRECATION_HEADERS } from './operation-specs/get-pet';
export { NOT_FOUND_OPERATION } from './operation-specs/not-found';

export const OPERATIONS = {
  listPets: LIST_PETS,
  createPet: CREATE_PET,
  getPet: GET_PET,
  submitMessage: SUBMIT_MESSAGE,
} as const satisfies Record<PublicOperationId, OperationSpec>;
