import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isDeepStrictEqual } from 'node:util';

/** A condition expression with its names and values. */
export interface Condition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

export type ConditionalPut = { readonly written: true } | { readonly written: false; readonly current?: Record<string, unknown> };

/**
 * Writes `item` if `condition` holds; otherwise reads, consistently, the item that stands in its
 * place (none if it went away meanwhile), so the caller can tell why the condition failed.
 */
export async function putIf(db: DynamoDBDocumentClient, tableName: string, keyName: string, item: Record<string, unknown>, condition: Condition): Promise<ConditionalPut> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: item,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: condition.names,
        ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
      }),
    );
    return { written: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { [keyName]: item[keyName] }, ConsistentRead: true }));
    return Item ? { written: false, current: Item } : { written: false };
  }
}

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
  const outcome = await putIf(db, tableName, keyName, item, { expression: 'attribute_not_exists(#key)', names: { '#key': keyName } });
  return outcome.written || isDeepStrictEqual(outcome.current, item) ? 'stored' : 'taken';
}
