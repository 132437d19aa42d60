import type { OperationSpec } from '../operation-spec';
import { NoPathParameters, NoQueryParameters } from '../schemas/common';
import { NoBody } from '../schemas/no-input';

export const DELETE_ACCOUNT = {
  operationId: 'deleteAccount',
  input: { path: NoPathParameters, query: NoQueryParameters, body: NoBody },
} as const satisfies OperationSpec;
