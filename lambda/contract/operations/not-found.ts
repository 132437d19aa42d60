import type { OperationSpec } from '../operation-spec';
import { AnyParameters, NoBody } from '../schemas/no-input';

/** The `$default` route: any method/path outside the route table; auth still comes first. */
export const NOT_FOUND_OPERATION = {
  operationId: 'notFound',
  input: { path: AnyParameters, query: AnyParameters, body: NoBody },
} as const satisfies OperationSpec;
