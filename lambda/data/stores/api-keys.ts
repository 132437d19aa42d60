import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoApiKeyRepository } from '../repositories/api-key-repository';

/** The API keys, by hash and by account (a store: see ./pets.ts). */
export const apiKeys = (): DynamoApiKeyRepository => new DynamoApiKeyRepository(documentClient(), tableName('apiKeys'));
