import type { OperationSpec } from '../operation-spec';
import { NoPathParameters, NoQueryParameters } from '../schemas/common';
import { NoBody } from '../schemas/no-input';

export const LIST_ACCOUNT_KEYS = {
  operationId: 'listAccountKeys',
  input: { path: NoPathParameters, query: NoQueryParameters, body: NoBody },
} as const satisfies OperationSpec;
