import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  ResourceInUseException,
  waitUntilTableExists,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '../lib/tables';

export type TableNames = Record<TableKey, string>;

export function localTableNames(prefix: string): TableNames {
  return Object.fromEntries(TABLE_KEYS.map((key) => [key, `${prefix}${TABLES[key].baseName}`])) as TableNames;
}

/**
 * A data directory from before an index was added to lib/tables.ts (the API keys' account index) has
 * the table without it: add what is missing, as a deploy would, and wait until it can be queried.
 */
async function addMissingIndexes(client: DynamoDBClient, name: string, table: TableDefinition): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(name, table);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.has(index.IndexName)) continue;
    const create = { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection };
    const update = (throughput: { ProvisionedThroughput?: { ReadCapacityUnits: number; WriteCapacityUnits: number } }) =>
      client.send(
        new UpdateTableCommand({
          TableName: name,
          AttributeDefinitions: wanted.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: { ...create, ...throughput } }],
        }),
      );
    try {
      await update({});
    } catch (error) {
      // dynalite asks for a throughput even on an on-demand table (DynamoDB Local refuses one there).
      if (!(error instanceof Error && /provisionedThroughput/i.test(error.message))) throw error;
      await update({ ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } });
    }
    for (let attempt = 0; ; attempt++) {
      const { Table: updated } = await client.send(new DescribeTableCommand({ TableName: name }));
      const status = updated?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === index.IndexName)?.IndexStatus;
      if (status === 'ACTIVE') break;
      // dynalite accepts the update but never builds the index.
      if (status === undefined && attempt >= 20) {
        throw new Error(
          `table ${name} predates its index ${index.IndexName ?? ''} and this DynamoDB engine cannot add one: ` +
            'start once with Java 17+ (DynamoDB Local adds it) or use a new PETSTORE_DATA_DIR',
        );
      }
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }
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

/** Creates every table of lib/tables.ts that does not exist yet and waits until all are active. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  await Promise.all(
    TABLE_KEYS.map(async (key) => {
      let existed = false;
      try {
        await client.send(new CreateTableCommand(createTableInput(names[key], TABLES[key])));
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
        existed = true;
      }
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: names[key] });
      if (existed) await addMissingIndexes(client, names[key], TABLES[key]);
    }),
  );
}
