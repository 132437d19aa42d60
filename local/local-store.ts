import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startLocalDynamoDb, LOCAL_CREDENTIALS, LOCAL_REGION, type EngineName, type LocalDynamoDbOptions } from './dynamodb-engine';
import { ensureTables, localTableNames, type TableNames } from './tables';

export interface LocalStore {
  readonly engine: EngineName;
  readonly endpoint: string;
  /** The engine's own process, when it has one (see LocalDynamoDb). */
  readonly enginePid: number | undefined;
  /** Resolves, saying how, if the engine ends on its own. */
  readonly died: Promise<string>;
  readonly tableNames: TableNames;
  stop(): Promise<void>;
}

export const LOCAL_TABLE_PREFIX = 'petstore-local-';

/** Connects to (or creates) the tables of shared/tables.ts on an endpoint. */
export async function prepareTables(endpoint: string, prefix: string): Promise<TableNames> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const names = localTableNames(prefix);
    await ensureTables(client, names);
    return names;
  } finally {
    client.destroy();
  }
}

/** Starts the embedded DynamoDB (locking its data directory, if any) and makes sure every table exists. */
export async function openLocalStore(options: LocalDynamoDbOptions & { tablePrefix?: string } = {}): Promise<LocalStore> {
  const db = await startLocalDynamoDb(options);
  try {
    const tableNames = await prepareTables(db.endpoint, options.tablePrefix ?? LOCAL_TABLE_PREFIX);
    return {
      engine: db.engine,
      endpoint: db.endpoint,
      enginePid: db.pid,
      died: db.died,
      tableNames,
      stop: () => db.stop(),
    };
  } catch (error) {
    await db.stop();
    throw error;
  }
}
