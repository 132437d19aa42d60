/**
 * Which DynamoDB calls each function makes, on which table or index: the single source of both its
 * IAM statements and the table-name environment variables it receives. Plain data kept next to the
 * stack (not in lambda/) so a reviewer sees every permission of the service in one table; when a
 * repository starts calling a new action, this is the line to change.
 */
import type { OperationId } from './routes';
import { PETS_STATUS_INDEX, type TableKey } from './tables';

export type DynamoDbAction =
  'dynamodb:GetItem' | 'dynamodb:PutItem' | 'dynamodb:UpdateItem' | 'dynamodb:DeleteItem' | 'dynamodb:Query' | 'dynamodb:Scan';

export interface TableAccess {
  readonly table: TableKey;
  /** Grant on this index only (`<table ARN>/index/<name>`), not on the table. */
  readonly index?: string;
  readonly actions: readonly DynamoDbAction[];
}

/** Every deployed function: one per route operation, plus the authorizer, the `$default` route and CORS preflights. */
export type FunctionName = OperationId | 'authorizer' | 'notFound' | 'preflight';

/**
 * Creating operations honour `Idempotency-Key` with a record per key, written by conditional puts
 * and read back by duplicates (lambda/shared/repositories/write-once.ts); records are never updated
 * or deleted in place: TTL removes them.
 */
const IDEMPOTENCY_RECORDS: TableAccess = {
  table: 'idempotency',
  actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
};

export const TABLE_ACCESS: Readonly<Record<FunctionName, readonly TableAccess[]>> = {
  // A status filter is a Query on the index; the unfiltered listing is a Scan of the table.
  listPets: [
    { table: 'pets', index: PETS_STATUS_INDEX, actions: ['dynamodb:Query'] },
    { table: 'pets', actions: ['dynamodb:Scan'] },
  ],
  // A conditional put whose condition fails is read back (consistent GetItem) to tell our own
  // retried write from a taken id (lambda/shared/repositories/put-if-absent.ts).
  createPet: [{ table: 'pets', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  getPet: [{ table: 'pets', actions: ['dynamodb:GetItem'] }],
  submitMessage: [{ table: 'messages', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  // Key lookups only: issuing, listing and revoking keys is the operator CLI's job, with its own credentials.
  authorizer: [{ table: 'apiKeys', actions: ['dynamodb:GetItem'] }],
  notFound: [],
  preflight: [],
};

/** The tables whose names a function must be told, each once. */
export function tablesUsedBy(name: FunctionName): TableKey[] {
  return [...new Set(TABLE_ACCESS[name].map((access) => access.table))];
}
