/**
 * The emulator's tables (local/engine/tables.ts): a data directory kept from a version whose indexes differ is
 * refused at start with what to do, rather than answering 500 at the first listing.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { localTableNames, ensureTables } from '#local/engine/tables';
import { createDynamoDbClient } from '#data/dynamodb-client';
import { freshTables, testEndpoint } from '../support/local-dynamodb';

const db = createDynamoDbClient(testEndpoint());
// The region and credentials of the suite's DynamoDB, as every test file sets them.
beforeAll(() => freshTables());
afterAll(() => db.destroy());

test('a pets table with the index of an earlier version is refused, naming the missing index and the way out', async () => {
  const names = localTableNames(`old-${randomBytes(4).toString('hex')}-`);
  await db.send(
    new CreateTableCommand({
      TableName: names.pets,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'N' },
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'status-id-index',
          KeySchema: [
            { AttributeName: 'status', KeyType: 'HASH' },
            { AttributeName: 'id', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await expect(ensureTables(db, names)).rejects.toThrow(
    new RegExp(
      `table ${names.pets} was created by an earlier version .* lacks the index status-shard-id-index: .*delete its data directory`,
    ),
  );
});
