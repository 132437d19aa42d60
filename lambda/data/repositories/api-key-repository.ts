import { GetCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { API_KEYS_ACCOUNT_INDEX } from '#shared/tables';
import {
  LAST_USED_RESOLUTION_MS,
  LISTED_REVOKED_KEYS_MAX,
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  REVOKED_KEYS_LISTED_FOR_DAYS,
} from '#contract/account-limits';
import { isConditionFailure, putIf } from './conditional-put';
import { readPages } from './read-pages';
import type { ApiKeyRecord } from '#auth/key-record';

export interface ApiKeyRepository {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Stores a new key's record and answers the record as stored: revoked when the account was closed first (see revokeOwned). */
  create(record: ApiKeyRecord): Promise<ApiKeyRecord>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns the revoked record, or undefined when no key has this id. Revoking twice keeps the first time. */
  revoke(keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
  /**
   * What the account API shows of an account at `now`: its active keys and, newest first, at most
   * LISTED_REVOKED_KEYS_MAX keys revoked within REVOKED_KEYS_LISTED_FOR_DAYS. One bounded Query, whatever the
   * account's history (eventually consistent, like every index read).
   */
  listedForAccount(accountId: string, now: Date): Promise<ApiKeyRecord[]>;
  /** The account's active keys: a Query that reads nothing else. */
  activeForAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /**
   * Revokes a key of this account; revoking twice keeps the first time. With `upsert`, a key whose record
   * is not stored yet is revoked ahead of its creation (closing an account races with its creates).
   * Undefined when the key belongs to another account, or (without `upsert`) when there is none.
   */
  revokeOwned(
    record: Pick<ApiKeyRecord, 'keyHash' | 'accountId' | 'keyId' | 'createdAt'>,
    at: Date,
    options?: { readonly upsert?: boolean },
  ): Promise<ApiKeyRecord | undefined>;
  /**
   * Notes that a key was just accepted, at most once per LAST_USED_RESOLUTION_MS: nothing is written
   * when the record read says it was used recently, and a conditional write keeps concurrent callers
   * from writing more often. Best effort: never rejects (a lost timestamp must not fail a request).
   */
  recordUse(record: Pick<ApiKeyRecord, 'keyHash' | 'lastUsedAt'>, at: Date): Promise<void>;
}

/**
 * The account index's sort key. An active key sorts after every date, a revoked one stays listed until
 * REVOKED_KEYS_LISTED_FOR_DAYS after its revocation; TTL (`expiresAt`, the same moment) then deletes it.
 * So listing reads only what it shows, and an account's history never grows past what it may list.
 */
const LISTED_UNTIL = 'listedUntil';
const ACTIVE = '9999-12-31T23:59:59.999Z';
const EXPIRES_AT = 'expiresAt';
const DAY_MS = 24 * 60 * 60 * 1000;
const listedUntil = (revokedAt: Date): Date => new Date(revokedAt.getTime() + REVOKED_KEYS_LISTED_FOR_DAYS * DAY_MS);

/** The record without the attributes only the table needs. */
function recordOf(item: Record<string, unknown>): ApiKeyRecord {
  const { [LISTED_UNTIL]: _listedUntil, [EXPIRES_AT]: _expiresAt, ...record } = item;
  return record as unknown as ApiKeyRecord;
}

/** The SET clause of a revocation: its time, and from then on the listing's and TTL's deadline. */
function revocation(at: Date): { readonly update: string; readonly values: Record<string, unknown> } {
  const until = listedUntil(at);
  return {
    update: `SET revokedAt = :at, ${LISTED_UNTIL} = :until, ${EXPIRES_AT} = :expires`,
    values: { ':at': at.toISOString(), ':until': until.toISOString(), ':expires': Math.ceil(until.getTime() / 1000) },
  };
}

/**
 * A key as the table keeps it once revoked at `revokedAt`: for tools that write an account's history directly
 * (the bench, tests), so they store exactly what revoking stores.
 */
export function revokedKeyItem(record: ApiKeyRecord, revokedAt: Date): Record<string, unknown> {
  const until = listedUntil(revokedAt);
  return {
    ...record,
    revokedAt: revokedAt.toISOString(),
    [LISTED_UNTIL]: until.toISOString(),
    [EXPIRES_AT]: Math.ceil(until.getTime() / 1000),
  };
}

export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // Consistent read: a key issued a moment ago must work on the very next request.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return Item ? recordOf(Item) : undefined;
  }

  /**
   * Stores a new key's record. A 256-bit random key cannot collide with another, so when the condition
   * fails the record under the hash can only be this one, put by an SDK retry after a lost answer: that
   * is success, told apart by the record's random keyId; anything else is refused.
   */
  async create(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    const outcome = await putIf(
      this.db,
      this.tableName,
      'keyHash',
      { ...record, [LISTED_UNTIL]: ACTIVE },
      { expression: 'attribute_not_exists(#keyHash)', names: { '#keyHash': 'keyHash' } },
    );
    if (outcome.written) return record;
    if (outcome.current?.keyId !== record.keyId) throw new Error(`an API key record with hash ${record.keyHash} already exists`);
    return recordOf(outcome.current);
  }

  /** Operator path only (the keys CLI): the table holds one small item per key. */
  async list(): Promise<ApiKeyRecord[]> {
    const items = await readPages(({ startKey }) =>
      this.db.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey })),
    );
    return items.map(recordOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async listedForAccount(accountId: string, now: Date): Promise<ApiKeyRecord[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: API_KEYS_ACCOUNT_INDEX,
        KeyConditionExpression: `accountId = :accountId AND ${LISTED_UNTIL} > :now`,
        ExpressionAttributeValues: { ':accountId': accountId, ':now': now.toISOString() },
        // Active keys first, then the most recently revoked: the cap bounds the first, the limit the second.
        ScanIndexForward: false,
        Limit: MAX_ACTIVE_KEYS_PER_ACCOUNT + LISTED_REVOKED_KEYS_MAX,
      }),
    );
    const records = Items.map(recordOf);
    const active = records.filter((record) => record.revokedAt === undefined);
    const revoked = records.filter((record) => record.revokedAt !== undefined).slice(0, LISTED_REVOKED_KEYS_MAX);
    return [...active, ...revoked].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async activeForAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const items = await readPages(({ startKey }) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: API_KEYS_ACCOUNT_INDEX,
          KeyConditionExpression: `accountId = :accountId AND ${LISTED_UNTIL} = :active`,
          ExpressionAttributeValues: { ':accountId': accountId, ':active': ACTIVE },
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    return items.map(recordOf);
  }

  async revokeOwned(
    record: Pick<ApiKeyRecord, 'keyHash' | 'accountId' | 'keyId' | 'createdAt'>,
    at: Date,
    { upsert = false }: { readonly upsert?: boolean } = {},
  ): Promise<ApiKeyRecord | undefined> {
    const { update, values } = revocation(at);
    const owned = 'accountId = :accountId AND attribute_not_exists(revokedAt)';
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash: record.keyHash },
          // An upsert writes what the record's creation would have: its put then fails and reads a revoked key.
          UpdateExpression: upsert
            ? `${update}, accountId = :accountId, keyId = :keyId, createdAt = if_not_exists(createdAt, :createdAt)`
            : update,
          ConditionExpression: upsert ? `attribute_not_exists(keyHash) OR (${owned})` : owned,
          ExpressionAttributeValues: {
            ...values,
            ':accountId': record.accountId,
            ...(upsert ? { ':keyId': record.keyId, ':createdAt': record.createdAt } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return recordOf(Attributes ?? {});
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Revoked already (its first time stays), or not this account's key.
      const current = await this.findByHash(record.keyHash);
      return current?.accountId === record.accountId ? current : undefined;
    }
  }

  async recordUse(record: Pick<ApiKeyRecord, 'keyHash' | 'lastUsedAt'>, at: Date): Promise<void> {
    const staleBefore = new Date(at.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    if (record.lastUsedAt !== undefined && record.lastUsedAt > staleBefore) return;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash: record.keyHash },
          UpdateExpression: 'SET lastUsedAt = :at',
          ConditionExpression: 'attribute_exists(keyHash) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
          ExpressionAttributeValues: { ':at': at.toISOString(), ':staleBefore': staleBefore },
        }),
      );
    } catch {
      // Another instance wrote it first (condition failed), or DynamoDB is out of reach: the time is approximate anyway.
    }
  }

  async revoke(keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const record = (await this.list()).find((candidate) => candidate.keyId === keyId);
    if (!record) return undefined;
    return record.revokedAt === undefined ? this.revokeOwned(record, at) : record;
  }
}
