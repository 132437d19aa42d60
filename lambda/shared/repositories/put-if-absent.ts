import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isDeepStrictEqual } from 'node:util';

/**
 * Writes a new item unless its key is taken. The SDK retries a put whose response was lost (timeout,
 * reset connection) although DynamoDB may already have stored it; that retry then fails its
 * condition on our own item. Reading the item back tells the two cases apart, so a lost response is
 * neither a duplicate (a retry under a new key) nor a false failure.
 */
export async function putIfAbsent(
  db: DynamoDBDocumentClient,
  tableName: string,
  keyName: string,
  item: Record<string, unknown>,
): Promise<'stored' | 'taken'> {
  try {
    await db.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(#key)', ExpressionAttributeNames: { '#key': keyName } }));
    return 'stored';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { [keyName]: item[keyName] }, ConsistentRead: true }));
    return Item !== undefined && isDeepStrictEqual(Item, item) ? 'stored' : 'taken';
  }
}
