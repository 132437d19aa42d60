import { tableName } from '../table-name';
import { documentClient } from '../dynamodb-client';
import { DynamoAccountKeys } from '../repositories/account-keys';
import { apiKeys } from './api-keys';

/** An account's keys under its cap, and the account's closing: the account API's writers (a store: see ./pets.ts). */
export const accountKeys = (): DynamoAccountKeys => new DynamoAccountKeys(documentClient(), apiKeys(), tableName('accounts'));
