import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startLocalDynamoDb, LOCAL_CREDENTIALS, LOCAL_REGION, type LocalDynamoDb, type LocalDynamoDbOptions } from './dynamodb-engine';
import { ensureTables, localTableNames, type TableNames } from './tables';

export type LocalStore = LocalDynamoDb & { readonly tableNames: TableNames };

export const LOCAL_TABLE_PREFIX = 'petstore-local-';

/** Connects to (or creates) the tables of shared/tables.ts on an endpoint. */
export async function prepareTables(endpoint: string, prefix: string): Promise<TableNames> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const names = localTableNames(prefix);
  await ensureTables(client, names).finally(() => client.destroy());
  return names;
}

/** Starts the embedded DynamoDB (locking its data directory, if any) and makes sure every table exists. */
export async function openLocalStore(options: LocalDynamoDbOptions & { tablePrefix?: string } = {}): Promise<LocalStore> {
  const db = await startLocalDynamoDb(options);
  try {
    return { ...db, tableNames: await prepareTables(db.endpoint, options.tablePrefix ?? LOCAL_TABLE_PREFIX) };
  } catch (error) {
    await db.stop();
    throw error;
  }
}
