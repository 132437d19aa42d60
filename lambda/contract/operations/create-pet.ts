import type { OperationSpec } from '../operation-spec';
import { NoPathParameters, NoQueryParameters } from '../schemas/common';
import { NewPet } from '../schemas/pet';

export const CREATE_PET = {
  operationId: 'createPet',
  input: { path: NoPathParameters, query: NoQueryParameters, body: NewPet },
  idempotent: true,
} as const satisfies OperationSpec;
