/**
 * Which DynamoDB calls each function makes, on which table or index: the single source of its IAM statements and
 * table-name variables. test/infra/iam-from-calls.test.ts fails on a call no row grants and on a grant no call uses.
 */
import type { OperationId } from './routes';
import { API_KEYS_ACCOUNT_INDEX, PETS_STATUS_INDEX, type TableKey } from './tables';

export type DynamoDbAction =
  'dynamodb:GetItem' | 'dynamodb:PutItem' | 'dynamodb:UpdateItem' | 'dynamodb:DeleteItem' | 'dynamodb:Query' | 'dynamodb:Scan';

export interface TableAccess {
  readonly table: TableKey;
  /** Grant on this index only (`<table ARN>/index/<name>`), not on the table. */
  readonly index?: string;
  readonly actions: readonly DynamoDbAction[];
}

/** Every deployed function: one per route operation, plus the authorizer, the `$default` routes and CORS preflights. */
export type FunctionName = OperationId | 'authorizer' | 'notFound' | 'accountNotFound' | 'preflight' | 'stageCheck';

/** `Idempotency-Key` records: conditional puts, read back by duplicates, removed by TTL (lambda/data/repositories/write-once.ts). */
const IDEMPOTENCY_RECORDS: TableAccess = {
  table: 'idempotency',
  actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
};

/** Reads of one account's keys: a Query on the account index, never the whole table. */
const ACCOUNT_KEYS_INDEX: TableAccess = { table: 'apiKeys', index: API_KEYS_ACCOUNT_INDEX, actions: ['dynamodb:Query'] };
/** The account's item: claimed, released and closed by conditional updates; read back to tell why a claim was refused. */
const ACCOUNT_CLAIMS: TableAccess = { table: 'accounts', actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'] };
const ACCOUNT_UPDATES: TableAccess = { table: 'accounts', actions: ['dynamodb:UpdateItem'] };
/** A conditional update, read back when its condition fails to answer with the first revocation. */
const KEY_REVOCATIONS: TableAccess = { table: 'apiKeys', actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'] };

export const TABLE_ACCESS: Readonly<Record<FunctionName, readonly TableAccess[]>> = {
  // A status filter is a Query on the index; the unfiltered listing is a Scan of the table.
  listPets: [
    { table: 'pets', index: PETS_STATUS_INDEX, actions: ['dynamodb:Query'] },
    { table: 'pets', actions: ['dynamodb:Scan'] },
  ],
  // A failed conditional put is read back to tell our own retried write from a taken id.
  createPet: [{ table: 'pets', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  getPet: [{ table: 'pets', actions: ['dynamodb:GetItem'] }],
  submitMessage: [{ table: 'messages', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  // Key lookups, and the approximate `lastUsedAt` (a conditional UpdateItem at most once an hour per key).
  authorizer: [{ table: 'apiKeys', actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'] }],
  notFound: [],
  listAccountKeys: [ACCOUNT_KEYS_INDEX],
  createAccountKey: [{ table: 'apiKeys', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, ACCOUNT_KEYS_INDEX, ACCOUNT_CLAIMS],
  revokeAccountKey: [KEY_REVOCATIONS, ACCOUNT_KEYS_INDEX, ACCOUNT_UPDATES],
  deleteAccount: [KEY_REVOCATIONS, ACCOUNT_KEYS_INDEX, ACCOUNT_CLAIMS],
  accountNotFound: [],
  preflight: [],
  // Its key is read from a secret; a fresh stage's check registers the key it mints (lambda/data/stage-check-key.ts),
  // a conditional put read back when its condition fails.
  stageCheck: [{ table: 'apiKeys', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }],
};

/** The tables whose names a function must be told, each once. */
export function tablesUsedBy(name: FunctionName): TableKey[] {
  return [...new Set(TABLE_ACCESS[name].map((access) => access.table))];
}
