import { tableName } from './config';
import { documentClient } from './dynamodb-client';
import { DynamoAccountKeys } from './repositories/account-keys';
import { DynamoApiKeyRepository } from './repositories/api-key-repository';

/** The account API's key store on this function's tables (the environment the stack sets). */
export const accountKeysStore = (): DynamoAccountKeys =>
  new DynamoAccountKeys(documentClient(), new DynamoApiKeyRepository(documentClient(), tableName('apiKeys')), tableName('accounts'));
