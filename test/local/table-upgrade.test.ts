import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../local/dynamodb-engine';
import { prepareTables } from '../../local/local-store';
import { testEndpoint } from '../support/local-dynamodb';

test('a data directory from before the account index gets the index when the store opens (DynamoDB Local), or a clear error (dynalite)', async () => {
  const client = new DynamoDBClient({ endpoint: testEndpoint(), region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const prefix = `old-${process.pid}-`;
  await client.send(
    new CreateTableCommand({
      TableName: `${prefix}api-keys`,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'keyHash', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'keyHash', AttributeType: 'S' }],
    }),
  );
  try {
    if (process.env.PETSTORE_TEST_DYNAMODB_ENGINE === 'dynalite') {
      // dynalite cannot add an index to a table: the store says what to do instead of failing later.
      await expect(prepareTables(testEndpoint(), prefix)).rejects.toThrow(/cannot add one: start once with Java 17\+/);
      return;
    }
    await prepareTables(testEndpoint(), prefix);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: `${prefix}api-keys` }));
    expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus])).toEqual([
      ['account-created-index', 'ACTIVE'],
    ]);
  } finally {
    client.destroy();
  }
});
