import type { OperationSpec } from '../operation-spec';
import { NoPathParameters } from '../schemas/common';
import { NoBody } from '../schemas/no-input';
import { ListPetsQuery } from '../schemas/list-pets-query';

export const LIST_PETS = {
  operationId: 'listPets',
  input: { path: NoPathParameters, query: ListPetsQuery, body: NoBody },
} as const satisfies OperationSpec;
