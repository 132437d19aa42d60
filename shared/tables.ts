/**
 * DynamoDB table definitions as plain data: the CDK stack and the local bootstrap both build their
 * tables from this module, so a key or index can never differ between the cloud and a laptop.
 * No aws-cdk-lib import here on purpose (the local server and Lambda code import it too).
 */
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
 * The pets of one status, in id order, written across PETS_STATUS_SHARDS partition keys (`available#7`): one
 * key per status would take every create of that status on one index partition, whose 1,000 writes/s are a wall
 * no split can lift, since ids only grow (docs/capacity.md). A filtered page queries every shard and merges.
 */
export const PETS_STATUS_INDEX = 'status-shard-id-index';
/**
 * 12: at 10,000 creates/s, 80 % of them `available`, the hottest shard takes about 720 writes/s (`npm run bench`,
 * partition heat); 8 would take about 1,085, over the limit. A filtered page costs 12 small Queries (6 read units).
 */
export const PETS_STATUS_SHARDS = 12;
export const PETS_STATUS_SHARD_ATTRIBUTE = 'statusShard';
/** The index key of one shard of a status: `available#7`. */
export const statusShardKey = (status: string, shard: number): string => `${status}#${shard}`;
/** Ids end in random bits, so `id mod N` spreads every status evenly over its shards. */
export const statusShardOf = (status: string, id: number): string => statusShardKey(status, id % PETS_STATUS_SHARDS);
/** Every shard key of a status, in shard order: what a filtered listing queries. */
export const statusShardKeys = (status: string): string[] =>
  Array.from({ length: PETS_STATUS_SHARDS }, (_, shard) => statusShardKey(status, shard));
/**
 * An account's keys by how long they stay listed (active keys last of all): the account API reads only
 * what it shows (lambda/data/repositories/api-key-repository.ts), never a Scan, never the whole history.
 */
export const API_KEYS_ACCOUNT_INDEX = 'account-listed-index';

export const TABLES = {
  pets: {
    baseName: 'pets',
    envVar: 'PETS_TABLE_NAME',
    partitionKey: { name: 'id', type: 'N' },
    globalSecondaryIndexes: [
      {
        indexName: PETS_STATUS_INDEX,
        partitionKey: { name: PETS_STATUS_SHARD_ATTRIBUTE, type: 'S' },
        sortKey: { name: 'id', type: 'N' },
      },
    ],
  },
  messages: {
    baseName: 'messages',
    envVar: 'MESSAGES_TABLE_NAME',
    partitionKey: { name: 'id', type: 'S' },
  },
  apiKeys: {
    baseName: 'api-keys',
    envVar: 'API_KEYS_TABLE_NAME',
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
  },
  /**
   * One item per account holding its active keys (lambda/data/repositories/account-keys.ts): the cap
   * on active keys is a conditional update of this item, so concurrent creates cannot exceed it.
   */
  accounts: {
    baseName: 'accounts',
    envVar: 'ACCOUNTS_TABLE_NAME',
    partitionKey: { name: 'accountId', type: 'S' },
  },
  /** One record per `Idempotency-Key` claim (lambda/data/repositories/write-once.ts); TTL removes it after the window. */
  idempotency: {
    baseName: 'idempotency',
    envVar: 'IDEMPOTENCY_TABLE_NAME',
    partitionKey: { name: 'id', type: 'S' },
    timeToLiveAttribute: 'expiration',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;

export const TABLE_KEYS = Object.keys(TABLES) as readonly TableKey[];

/**
 * The variables through which a function learns the physical names of these tables: the one mapping
 * the stack (per function), the local server (all tables) and the benchmarks use.
 */
export const tableEnvironment = (keys: readonly TableKey[], physicalName: (key: TableKey) => string): Record<string, string> =>
  Object.fromEntries(keys.map((key) => [TABLES[key].envVar, physicalName(key)]));
