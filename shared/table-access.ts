/**
 * Which DynamoDB calls each function makes, on which table or index: the single source of both its
 * IAM statements and the table-name environment variables it receives. Plain data kept next to the
 * stack (not in lambda/) so a reviewer sees every permission of the service in one table; when a
 * repository starts calling a new action, this is the line to change. test/infra/iam-from-calls.test.ts
 * records the calls each function makes, failure paths included, and fails on a call no row grants
 * and on a grant no call uses.
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
 * The account's item (its active-key slots, its count of today's creates, its closing): claimed,
 * released and closed by (conditional) updates. A create reads it, consistently, to tell why its claim
 * was refused and to repair a slot a crashed request left behind; closing, to revoke every slot's key first.
 */
const ACCOUNT_CLAIMS: TableAccess = { table: 'accounts', actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'] };
const ACCOUNT_UPDATES: TableAccess = { table: 'accounts', actions: ['dynamodb:UpdateItem'] };
/**
 * Revoking a key is a conditional update; when its condition fails (revoked already, or another
 * account's key) the record is read back to answer with the first revocation.
 */
const KEY_REVOCATIONS: TableAccess = { table: 'apiKeys', actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'] };

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
  // The key's put is conditional, and read back when the condition fails: an SDK retry after a lost
  // answer finds the record it wrote (lambda/data/repositories/conditional-put.ts putIf).
  createAccountKey: [{ table: 'apiKeys', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] }, ACCOUNT_KEYS_INDEX, ACCOUNT_CLAIMS],
  revokeAccountKey: [KEY_REVOCATIONS, ACCOUNT_KEYS_INDEX, ACCOUNT_UPDATES],
  deleteAccount: [KEY_REVOCATIONS, ACCOUNT_KEYS_INDEX, ACCOUNT_CLAIMS],
  accountNotFound: [],
  preflight: [],
  // A client of the stage like any other: its key is read from a secret (lib/petstore-stage-check.ts), never a table.
  stageCheck: [],
};

/** The tables whose names a function must be told, each once. */
export function tablesUsedBy(name: FunctionName): TableKey[] {
  return [...new Set(TABLE_ACCESS[name].map((access) => access.table))];
}
