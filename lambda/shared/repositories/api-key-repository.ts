import { GetCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { putIf } from './put-if-absent';

/** What the API keys table stores: never the key itself, only its SHA-256 hash. */
export interface ApiKeyRecord {
  readonly keyHash: string;
  readonly keyId: string;
  readonly accountId: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly description?: string;
}

export interface ApiKeyRepository {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  create(record: ApiKeyRecord): Promise<void>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns the revoked record, or undefined when no key has this id. Revoking twice keeps the first time. */
  revoke(keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
}

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
