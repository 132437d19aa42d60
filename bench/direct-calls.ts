import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PET_PROJECTION } from '#data/repositories/pet-repository';
import { PETS_STATUS_INDEX, PETS_STATUS_SHARD_ATTRIBUTE } from '#shared/tables';
import { statusShards } from '#data/status-shards';
import { BENCH_STATUS_SHARDS } from './bench-store';
import type { TableNames } from '#local/engine/tables';

/** The DynamoDB calls the handlers make, made directly with the SDK: the bench's baseline. */
export function directCalls(db: DynamoDBDocumentClient, tables: TableNames) {
  const { keysAfter } = statusShards(BENCH_STATUS_SHARDS);
  return {
    getPet: (id: number) => db.send(new GetCommand({ TableName: tables.pets, Key: { id }, ...PET_PROJECTION })),
    /** A page of `limit` plus the one item the repository reads ahead, from every shard of the status, in parallel. */
    listByStatus: (status: string, limit: number) =>
      Promise.all(
        keysAfter(status).map((shard) =>
          db.send(
            new QueryCommand({
              TableName: tables.pets,
              IndexName: PETS_STATUS_INDEX,
              Limit: limit + 1,
              KeyConditionExpression: '#shard = :shard',
              ...PET_PROJECTION,
              ExpressionAttributeNames: { ...PET_PROJECTION.ExpressionAttributeNames, '#shard': PETS_STATUS_SHARD_ATTRIBUTE },
              ExpressionAttributeValues: { ':shard': shard },
            }),
          ),
        ),
      ),
    putNew: (table: keyof TableNames, item: Record<string, unknown>) =>
      db.send(
        new PutCommand({
          TableName: tables[table],
          Item: item,
          ConditionExpression: 'attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': 'id' },
        }),
      ),
  };
}
