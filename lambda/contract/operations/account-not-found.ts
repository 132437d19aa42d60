import type { OperationSpec } from '../operation-spec';
import { AnyParameters, NoBody } from '../schemas/no-input';

/** The account API's `$default` route: any method/path outside its routes; the caller check still comes first. */
export const ACCOUNT_NOT_FOUND_OPERATION = {
  operationId: 'accountNotFound',
  input: { path: AnyParameters, query: AnyParameters, body: NoBody },
} as const satisfies OperationSpec;
