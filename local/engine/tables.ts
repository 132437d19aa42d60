import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  waitUntilTableExists,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '#shared/tables';

export type TableNames = Record<TableKey, string>;

export function localTableNames(prefix: string): TableNames {
  return Object.fromEntries(TABLE_KEYS.map((key) => [key, `${prefix}${TABLES[key].baseName}`])) as TableNames;
}

function createTableInput(name: string, table: TableDefinition): CreateTableCommandInput {
  const attributes = new Map<string, AttributeDefinition>();
  const keySchema = (partition: TableDefinition['partitionKey'], sort?: TableDefinition['partitionKey']) => {
    for (const key of [partition, sort]) if (key) attributes.set(key.name, { AttributeName: key.name, AttributeType: key.type });
    return [
      { AttributeName: partition.name, KeyType: 'HASH' as const },
      ...(sort ? [{ AttributeName: sort.name, KeyType: 'RANGE' as const }] : []),
    ];
  };
  const KeySchema = keySchema(table.partitionKey, table.sortKey);
  const indexes = (table.globalSecondaryIndexes ?? []).map((index) => ({
    IndexName: index.indexName,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection: { ProjectionType: 'ALL' as const },
  }));
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema,
    AttributeDefinitions: [...attributes.values()],
    ...(indexes.length > 0 ? { GlobalSecondaryIndexes: indexes } : {}),
  };
}

/** Creates the missing tables of shared/tables.ts; one from an earlier version lacking an index is refused (nothing migrates). */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  await Promise.all(
    TABLE_KEYS.map(async (key) => {
      try {
        await client.send(new CreateTableCommand(createTableInput(names[key], TABLES[key])));
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
        const { Table } = await client.send(new DescribeTableCommand({ TableName: names[key] }));
        const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
        const definition: TableDefinition = TABLES[key];
        const missing = (definition.globalSecondaryIndexes ?? []).filter((index) => !existing.has(index.indexName));
        if (missing.length > 0) {
          throw new Error(
            `table ${names[key]} was created by an earlier version of the service and lacks the index ${missing.map((index) => index.indexName).join(', ')}: ` +
              'stop the server and delete its data directory (.petstore/ or PETSTORE_DATA_DIR), or point PETSTORE_DATA_DIR at a new one',
          );
        }
      }
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: names[key] });
    }),
  );
}
