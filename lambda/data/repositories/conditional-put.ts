import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';

/** A write refused because its condition did not hold: the one test for it (the SDK's class, or its name from a wrapped error). */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');

/** A condition expression with its names and values. */
export interface Condition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

export type ConditionalPut = { readonly written: true } | { readonly written: false; readonly current?: Record<string, unknown> };

/**
 * The attribute that tells one write attempt from every other: a random value drawn when an item is
 * prepared, stored with it and never returned to clients. Two different requests may prepare items
 * that are otherwise equal (same body, same millisecond, same drawn key); only the token says whose
 * item a key holds.
 */
export const WRITE_TOKEN = 'writeToken';

export type Tokened<T> = T & { readonly [WRITE_TOKEN]: string };

export const withWriteToken = <T extends object>(item: T): Tokened<T> => ({
  ...item,
  [WRITE_TOKEN]: randomBytes(16).toString('base64url'),
});

/**
 * Writes `item` if `condition` holds; otherwise reads, consistently, the item that stands in its
 * place (none if it went away meanwhile), so the caller can tell why the condition failed.
 */
export async function putIf(
  db: DynamoDBDocumentClient,
  tableName: string,
  keyName: string,
  item: Record<string, unknown>,
  condition: Condition,
): Promise<ConditionalPut> {
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
    if (!isConditionFailure(error)) throw error;
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { [keyName]: item[keyName] }, ConsistentRead: true }));
    return Item ? { written: false, current: Item } : { written: false };
  }
}

/** The item under the key is the one this attempt (or a retry of the very same write) put there. */
export const isSameWrite = (current: Record<string, unknown> | undefined, item: Tokened<Record<string, unknown>>): boolean =>
  current !== undefined && current[WRITE_TOKEN] === item[WRITE_TOKEN];

/**
 * Writes a new item unless its key is taken. The SDK retries a put whose response was lost (timeout,
 * reset connection) although DynamoDB may already have stored it; that retry then fails its
 * condition on our own item. The item's write token tells the two cases apart, so a lost response is
 * neither a duplicate (a retry under a new key) nor a false failure — and another request's item,
 * however equal, is never mistaken for ours.
 */
export async function putIfAbsent(
  db: DynamoDBDocumentClient,
  tableName: string,
  keyName: string,
  item: Tokened<Record<string, unknown>>,
): Promise<'stored' | 'taken'> {
  const outcome = await putIf(db, tableName, keyName, item, { expression: 'attribute_not_exists(#key)', names: { '#key': keyName } });
  return outcome.written || isSameWrite(outcome.current, item) ? 'stored' : 'taken';
}
