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

/** The account index's sort key: active keys sort after every date, a revoked one until TTL (`expiresAt`) deletes it. */
const LISTED_UNTIL = 'listedUntil';
const ACTIVE = '9999-12-31T23:59:59.999Z';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The record without the attributes only the table needs. */
function recordOf(item: Record<string, unknown>): ApiKeyRecord {
  const { [LISTED_UNTIL]: _listedUntil, expiresAt: _expiresAt, ...record } = item;
  return record as unknown as ApiKeyRecord;
}

/** What revoking at `at` writes: its time, and from then on the listing's and TTL's deadline. */
function revocation(at: Date): Record<string, string | number> {
  const until = new Date(at.getTime() + REVOKED_KEYS_LISTED_FOR_DAYS * DAY_MS);
  return { revokedAt: at.toISOString(), [LISTED_UNTIL]: until.toISOString(), expiresAt: Math.ceil(until.getTime() / 1000) };
}

/** A key as the table keeps it once revoked: for the bench and tests, which write an account's history directly. */
export const revokedKeyItem = (record: ApiKeyRecord, revokedAt: Date): Record<string, unknown> => ({ ...record, ...revocation(revokedAt) });

export type ApiKeyRepository = DynamoApiKeyRepository;

export class DynamoApiKeyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // Consistent read: a key issued a moment ago must work on the very next request.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return Item ? recordOf(Item) : undefined;
  }

  /** The record as stored (revoked if the account closed first). A 256-bit key cannot collide: a taken hash is our retried put. */
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

  /** What the account API shows at `now`: active keys and the latest revoked ones, in one bounded Query. */
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

  /** The account's active keys: a Query that reads nothing else. */
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

  /**
   * Revokes a key of this account, keeping the first time; `upsert` revokes one not stored yet (a close racing its
   * creates). Undefined when the key is another account's, or (without `upsert`) when there is none.
   */
  async revokeOwned(
    record: Pick<ApiKeyRecord, 'keyHash' | 'accountId' | 'keyId' | 'createdAt'>,
    at: Date,
    { upsert = false }: { readonly upsert?: boolean } = {},
  ): Promise<ApiKeyRecord | undefined> {
    const revoked = Object.entries(revocation(at));
    const owned = 'accountId = :accountId AND attribute_not_exists(revokedAt)';
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash: record.keyHash },
          // An upsert writes what the record's creation would have: its put then fails and reads a revoked key.
          UpdateExpression:
            `SET ${revoked.map(([name]) => `${name} = :${name}`).join(', ')}` +
            (upsert ? ', accountId = :accountId, keyId = :keyId, createdAt = if_not_exists(createdAt, :createdAt)' : ''),
          ConditionExpression: upsert ? `attribute_not_exists(keyHash) OR (${owned})` : owned,
          ExpressionAttributeValues: {
            ...Object.fromEntries(revoked.map(([name, value]) => [`:${name}`, value])),
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

  /** Notes a key's use at most once per LAST_USED_RESOLUTION_MS; never rejects: a lost timestamp must not fail a request. */
  async recordUse(record: Pick<ApiKeyRecord, 'keyHash' | 'lastUsedAt'>, at: Date): Promise<void> {
    const staleBefore = new Date(at.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    if (record.lastUsedAt !== undefined && record.lastUsedAt > staleBefore) return;
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash: record.keyHash },
          UpdateExpression: 'SET lastUsedAt = :at',
          ConditionExpression: 'attribute_exists(keyHash) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
          ExpressionAttributeValues: { ':at': at.toISOString(), ':staleBefore': staleBefore },
        }),
      )
      .catch(() => undefined);
  }

  /** Operator path: the revoked record, or undefined when no key has this id. Revoking twice keeps the first time. */
  async revoke(keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const record = (await this.list()).find((candidate) => candidate.keyId === keyId);
    if (!record) return undefined;
    return record.revokedAt === undefined ? this.revokeOwned(record, at) : record;
  }
}
