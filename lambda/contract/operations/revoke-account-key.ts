import type { OperationSpec } from '../operation-spec';
import { AccountKeyPath } from '../schemas/account-key';
import { NoQueryParameters } from '../schemas/common';
import { NoBody } from '../schemas/no-input';

export const REVOKE_ACCOUNT_KEY = {
  operationId: 'revokeAccountKey',
  input: { path: AccountKeyPath, query: NoQueryParameters, body: NoBody },
} as const satisfies OperationSpec;
