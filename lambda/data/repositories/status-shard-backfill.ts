import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PETS_STATUS_SHARD_ATTRIBUTE, statusShardOf } from '#shared/tables';
import { isConditionFailure } from './conditional-put';

export interface BackfillProgress {
  readonly scanned: number;
  readonly updated: number;
}

/**
 * Gives every pet stored before the status index was sharded its shard key (docs/deploy-reference.md, "Upgrading the
 * status index"). One Scan page at a time, a conditional update per pet that lacks the key: safe to run while
 * the service writes (new pets carry their key already, and a pet's status never changes), safe to stop and
 * run again (what has its key is skipped). The operator's tool, never a Lambda function's.
 */
export async function backfillStatusShards(
  db: DynamoDBDocumentClient,
  tableName: string,
  onPage: (progress: BackfillProgress) => void = () => undefined,
): Promise<BackfillProgress> {
  let scanned = 0;
  let updated = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        ExclusiveStartKey: startKey,
        ProjectionExpression: '#id, #status, #shard',
        ExpressionAttributeNames: { '#id': 'id', '#status': 'status', '#shard': PETS_STATUS_SHARD_ATTRIBUTE },
      }),
    );
    for (const item of page.Items ?? []) {
      scanned++;
      if (item[PETS_STATUS_SHARD_ATTRIBUTE] !== undefined) continue;
      const { id, status } = item as { id: number; status: string };
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'SET #shard = :shard',
            ConditionExpression: 'attribute_exists(#id) AND attribute_not_exists(#shard) AND #status = :status',
            ExpressionAttributeNames: { '#id': 'id', '#status': 'status', '#shard': PETS_STATUS_SHARD_ATTRIBUTE },
            ExpressionAttributeValues: { ':shard': statusShardOf(status, id), ':status': status },
          }),
        );
        updated++;
      } catch (error) {
        // Given its key meanwhile (another run), or gone: nothing left to do for this pet.
        if (!isConditionFailure(error)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
    onPage({ scanned, updated });
  } while (startKey);
  return { scanned, updated };
}
