import type { OperationSpec } from '../operation-spec';
import { ListPetsQuery } from '../schemas/list-pets-query';

export const LIST_PETS = { operationId: 'listPets', input: { query: ListPetsQuery } } as const satisfies OperationSpec;
