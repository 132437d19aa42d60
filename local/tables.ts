import {
  CreateTableCommand,
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

/** Creates every table of shared/tables.ts that does not exist yet and waits until all are active. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  await Promise.all(
    TABLE_KEYS.map(async (key) => {
      try {
        await client.send(new CreateTableCommand(createTableInput(names[key], TABLES[key])));
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
      }
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: names[key] });
    }),
  );
}
