import { GetCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { API_KEYS_ACCOUNT_INDEX } from '#shared/tables';
import { LAST_USED_RESOLUTION_MS } from '#contract/account-limits';
import { putIf } from './conditional-put';
import type { ApiKeyRecord } from '#auth/key-record';

export interface ApiKeyRepository {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  create(record: ApiKeyRecord): Promise<void>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns the revoked record, or undefined when no key has this id. Revoking twice keeps the first time. */
  revoke(keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
  /** One account's keys, newest first: a Query on the account index (eventually consistent, like every index read). */
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key of this account (condition: it still belongs to it); revoking twice keeps the first time. */
  revokeOwned(record: Pick<ApiKeyRecord, 'keyHash' | 'accountId'>, at: Date): Promise<ApiKeyRecord | undefined>;
  /**
   * Notes that a key was just accepted, at most once per LAST_USED_RESOLUTION_MS: nothing is written
   * when the record read says it was used recently, and a conditional write keeps concurrent callers
   * from writing more often. Best effort: never rejects (a lost timestamp must not fail a request).
   */
  recordUse(record: Pick<ApiKeyRecord, 'keyHash' | 'lastUsedAt'>, at: Date): Promise<void>;
}

const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    // Consistent read: a key issued a moment ago must work on the very next request.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return Item as ApiKeyRecord | undefined;
  }

  /**
   * Stores a new key's record. A 256-bit random key cannot collide with another, so when the condition
   * fails the record under the hash can only be this one, put by an SDK retry after a lost answer: that
   * is success, told apart by the record's random keyId; anything else is refused.
   */
  async create(record: ApiKeyRecord): Promise<void> {
    const outcome = await putIf(
      this.db,
      this.tableName,
      'keyHash',
      { ...record },
      { expression: 'attribute_not_exists(#keyHash)', names: { '#keyHash': 'keyHash' } },
    );
    if (!outcome.written && outcome.current?.keyId !== record.keyId)
      throw new Error(`an API key record with hash ${record.keyHash} already exists`);
  }

  /** Operator path only (the keys CLI): the table holds one small item per key. */
  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey }));
      records.push(...((page.Items ?? []) as ApiKeyRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async listByAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: API_KEYS_ACCOUNT_INDEX,
          KeyConditionExpression: 'accountId = :accountId',
          ExpressionAttributeValues: { ':accountId': accountId },
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
        }),
      );
      records.push(...((page.Items ?? []) as ApiKeyRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }

  async revokeOwned(record: Pick<ApiKeyRecord, 'keyHash' | 'accountId'>, at: Date): Promise<ApiKeyRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash: record.keyHash },
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ConditionExpression: 'accountId = :accountId',
          ExpressionAttributeValues: { ':at': at.toISOString(), ':accountId': record.accountId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as ApiKeyRecord;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
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
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash: record.keyHash },
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
        ConditionExpression: 'attribute_exists(keyHash)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ApiKeyRecord;
  }
}
