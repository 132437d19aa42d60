import type { OperationSpec } from '../operation-spec';
import { NoQueryParameters } from '../schemas/common';
import { NewPet } from '../schemas/pet';

export const CREATE_PET = {
  operationId: 'createPet',
  input: { body: NewPet, query: NoQueryParameters },
  idempotent: true,
} as const satisfies OperationSpec;
