import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../local/dynamodb-engine';
import { prepareTables } from '../../local/local-store';
import { testEndpoint } from '../support/local-dynamodb';

test('a data directory from before the account index gets the index when the store opens', async () => {
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
  await prepareTables(testEndpoint(), prefix);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: `${prefix}api-keys` }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus])).toEqual([['account-created-index', 'ACTIVE']]);
  client.destroy();
});
