import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';

/** A write refused because its condition did not hold: the one test for it (the SDK's class, or its name from a wrapped error). */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');

export interface Condition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

type ConditionalPut = { readonly written: true } | { readonly written: false; readonly current?: Record<string, unknown> };

/** A random value per prepared item, never answered: two otherwise equal items of two requests tell apart by it. */
const WRITE_TOKEN = 'writeToken';

export type Tokened<T> = T & { readonly [WRITE_TOKEN]: string };

export const withWriteToken = <T extends object>(item: T): Tokened<T> => ({
  ...item,
  [WRITE_TOKEN]: randomBytes(16).toString('base64url'),
});

/** Writes `item` if `condition` holds; otherwise reads, consistently, the item in its place (if any) to tell why. */
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

/** Writes a new item unless its key is taken; the write token tells our own retried put from another request's item. */
export async function putIfAbsent(
  db: DynamoDBDocumentClient,
  tableName: string,
  keyName: string,
  item: Tokened<Record<string, unknown>>,
): Promise<'stored' | 'taken'> {
  const outcome = await putIf(db, tableName, keyName, item, { expression: 'attribute_not_exists(#key)', names: { '#key': keyName } });
  return outcome.written || isSameWrite(outcome.current, item) ? 'stored' : 'taken';
}
