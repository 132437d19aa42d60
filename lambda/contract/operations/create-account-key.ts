import type { OperationSpec } from '../operation-spec';
import { NewAccountKey } from '../schemas/account-key';
import { NoPathParameters, NoQueryParameters } from '../schemas/common';

export const CREATE_ACCOUNT_KEY = {
  operationId: 'createAccountKey',
  input: { path: NoPathParameters, query: NoQueryParameters, body: NewAccountKey },
} as const satisfies OperationSpec;
