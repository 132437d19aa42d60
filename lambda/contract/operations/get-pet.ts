import type { OperationSpec } from '../operation-spec';
import { NoQueryParameters } from '../schemas/common';
import { NoBody } from '../schemas/no-input';
import { GetPetPath } from '../schemas/get-pet-path';

/**
 * getPet is deprecated since the first release (RFC 9745 `Deprecation`, a structured-field date) and
 * removed on 5 December 2030 (RFC 8594 `Sunset`); the replacement is GET /v1/pets with `status`.
 */
export const GET_PET_DEPRECATION_HEADERS = {
  deprecation: '@1767225600', // 2026-01-01T00:00:00Z
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
} as const;

export const GET_PET = {
  operationId: 'getPet',
  input: { path: GetPetPath, query: NoQueryParameters, body: NoBody },
  headers: GET_PET_DEPRECATION_HEADERS,
} as const satisfies OperationSpec;
