/**
 * Which DynamoDB calls each function makes, on which table or index: the single source of both its
 * IAM statements and the table-name environment variables it receives. Plain data kept next to the
 * stack (not in lambda/) so a reviewer sees every permission of the service in one table; when a
 * repository starts calling a new action, this is the line to change.
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
export type FunctionName = OperationId | 'authorizer' | 'notFound' | 'accountNotFound' | 'preflight';

/**
 * Creating operations honour `Idempotency-Key` with a record per key, written by conditional puts
 * and read back by duplicates (lambda/data/repositories/write-once.ts); records are never updated
 * or deleted in place: TTL removes them.
 */
const IDEMPOTENCY_RECORDS: TableAccess = {
  table: 'idempotency',
  actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
};

/** Reads of one account's keys: a Query on the account index, never the whole table. */
const ACCOUNT_KEYS_INDEX: TableAccess = { table: 'apiKeys', index: API_KEYS_ACCOUNT_INDEX, actions: ['dynamodb:Query'] };
/**
 * The account's active-key set: claimed and released by conditional updates; read back (consistent
 * GetItem) only to repair a slot a crashed request left behind.
 */
const ACCOUNT_SLOTS: TableAccess = { table: 'accounts', actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'] };

export const TABLE_ACCESS: Readonly<Record<FunctionName, readonly TableAccess[]>> = {
  // A status filter is a Query on the index; the unfiltered listing is a Scan of the table.
  listPets: [
    { table: 'pets', index: PETS_STATUS_INDEX, actions: ['dynamodb:Query'] },
    { table: 'pets', actions: ['dynamodb:Scan'] },
  ],
  // A conditional put whose condition fails is read back (consistent GetItem) to tell our own
  // retried write from a taken id (lambda/data/repositories/conditional-put.ts).
  createPet: [{ table: 'pets', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  getPet: [{ table: 'pets', actions: ['dynamodb:GetItem'] }],
  submitMessage: [{ table: 'messages', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, IDEMPOTENCY_RECORDS],
  // Key lookups, and the approximate `lastUsedAt` (a conditional UpdateItem at most once an hour per
  // key: ApiKeyRepository.recordUse). Issuing and revoking keys is for the account API and the operator CLI.
  authorizer: [{ table: 'apiKeys', actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'] }],
  notFound: [],
  // The account API (lambda/data/repositories/account-keys.ts): a user's keys are found through the
  // account index only; the accounts item holds the active-key cap.
  listAccountKeys: [ACCOUNT_KEYS_INDEX],
  createAccountKey: [{ table: 'apiKeys', actions: ['dynamodb:PutItem'] }, ACCOUNT_KEYS_INDEX, ACCOUNT_SLOTS],
  revokeAccountKey: [{ table: 'apiKeys', actions: ['dynamodb:UpdateItem'] }, ACCOUNT_KEYS_INDEX, ACCOUNT_SLOTS],
  deleteAccount: [
    { table: 'apiKeys', actions: ['dynamodb:UpdateItem'] },
    ACCOUNT_KEYS_INDEX,
    { table: 'accounts', actions: ['dynamodb:UpdateItem'] },
  ],
  accountNotFound: [],
  preflight: [],
};

/** The tables whose names a function must be told, each once. */
export function tablesUsedBy(name: FunctionName): TableKey[] {
  return [...new Set(TABLE_ACCESS[name].map((access) => access.table))];
}
