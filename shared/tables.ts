/** DynamoDB table definitions the CDK stack and the local bootstrap both build from: no key or index differs between them. */
export type AttributeType = 'S' | 'N';

export interface KeyAttribute {
  readonly name: string;
  readonly type: AttributeType;
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Suffix of the physical table name (`<prefix><baseName>` locally, CDK-generated in AWS). */
  readonly baseName: string;
  /** Environment variable through which functions learn the physical table name. */
  readonly envVar: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Indexes project ALL attributes: a page of pets is served by the index alone, no extra reads. */
  readonly globalSecondaryIndexes?: readonly IndexDefinition[];
  /** Epoch-seconds attribute after which DynamoDB deletes the item (TTL); set up by the stack. */
  readonly timeToLiveAttribute?: string;
}

/**
 * The pets of one status, in id order, written across several partition keys (`available#1`): one key per status
 * would put every create of it on one index partition, capped at 1,000 writes/s. How many: shared/status-shards.ts.
 */
export const PETS_STATUS_INDEX = 'status-shard-id-index';
export const PETS_STATUS_SHARD_ATTRIBUTE = 'statusShard';
/** The index key of one shard of a status: `available#1`. */
export const statusShardKey = (status: string, shard: number): string => `${status}#${shard}`;
/** An account's keys by how long they stay listed (active keys last): the account API reads only what it shows. */
export const API_KEYS_ACCOUNT_INDEX = 'account-listed-index';

/** `api-keys` → API_KEYS_TABLE_NAME, the variable through which functions learn the physical name. */
const table = <const T extends Omit<TableDefinition, 'envVar'>>(definition: T) => ({
  ...definition,
  envVar: `${definition.baseName.toUpperCase().replaceAll('-', '_')}_TABLE_NAME`,
});

export const TABLES = {
  pets: table({
    baseName: 'pets',
    partitionKey: { name: 'id', type: 'N' },
    globalSecondaryIndexes: [
      {
        indexName: PETS_STATUS_INDEX,
        partitionKey: { name: PETS_STATUS_SHARD_ATTRIBUTE, type: 'S' },
        sortKey: { name: 'id', type: 'N' },
      },
    ],
  }),
  messages: table({ baseName: 'messages', partitionKey: { name: 'id', type: 'S' } }),
  apiKeys: table({
    baseName: 'api-keys',
    partitionKey: { name: 'keyHash', type: 'S' },
    globalSecondaryIndexes: [
      {
        indexName: API_KEYS_ACCOUNT_INDEX,
        partitionKey: { name: 'accountId', type: 'S' },
        sortKey: { name: 'listedUntil', type: 'S' },
      },
    ],
    /** Set when a key is revoked: DynamoDB deletes it REVOKED_KEYS_LISTED_FOR_DAYS later (within a few days of that). */
    timeToLiveAttribute: 'expiresAt',
  }),
  /** One item per account: the cap on its active keys is a conditional update of it (lambda/data/repositories/account-keys.ts). */
  accounts: table({ baseName: 'accounts', partitionKey: { name: 'accountId', type: 'S' } }),
  /** One record per `Idempotency-Key` claim (lambda/data/repositories/write-once.ts); TTL removes it after the window. */
  idempotency: table({ baseName: 'idempotency', partitionKey: { name: 'id', type: 'S' }, timeToLiveAttribute: 'expiration' }),
} satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;

export const TABLE_KEYS = Object.keys(TABLES) as readonly TableKey[];

/** The variables through which a function learns these tables' physical names (stack, local server, benchmarks). */
export const tableEnvironment = (keys: readonly TableKey[], physicalName: (key: TableKey) => string): Record<string, string> =>
  Object.fromEntries(keys.map((key) => [TABLES[key].envVar, physicalName(key)]));
