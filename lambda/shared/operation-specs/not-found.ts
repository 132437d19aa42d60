import type { OperationSpec } from '../operation-spec';

/** The `$default` route: any method/path outside the route table; auth still comes first. */
export const NOT_FOUND_OPERATION = { operationId: 'notFound', input: {} } as const satisfies OperationSpec;
