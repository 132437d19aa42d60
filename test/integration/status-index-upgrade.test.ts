/**
 * A stage deployed before the status index was sharded upgrades without a pet missing from any listing
 * (docs/deploy-reference.md, "Upgrading the status index"), against the local DynamoDB: while its table holds both
 * indexes, listPets reads the old one; the backfill gives every old pet its shard key, new pets are created
 * meanwhile; then the sharded listing pages exactly as the old one did.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { PET_STATUSES, type PetStatus } from '#contract/schemas/pet-status';
import { createDynamoDbClient } from '#data/dynamodb-client';
import { DynamoPetRepository } from '#data/repositories/pet-repository';
import { backfillStatusShards } from '#data/repositories/status-shard-backfill';
import { PETS_LEGACY_STATUS_INDEX, PETS_STATUS_INDEX, PETS_STATUS_SHARD_ATTRIBUTE } from '#shared/tables';
import { freshTables, testDocumentClient, testEndpoint } from '../support/local-dynamodb';

const db = testDocumentClient();
const TABLE = `upgrade-${randomBytes(4).toString('hex')}-pets`;
const keySchema = (partition: string) => [
  { AttributeName: partition, KeyType: 'HASH' as const },
  { AttributeName: 'id', KeyType: 'RANGE' as const },
];

beforeAll(async () => {
  await freshTables();
  const client = createDynamoDbClient(testEndpoint());
  // The table as a stage in the middle of its upgrade has it: both indexes.
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'N' },
        { AttributeName: 'status', AttributeType: 'S' },
        { AttributeName: PETS_STATUS_SHARD_ATTRIBUTE, AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        { IndexName: PETS_LEGACY_STATUS_INDEX.indexName, KeySchema: keySchema('status'), Projection: { ProjectionType: 'ALL' } },
        { IndexName: PETS_STATUS_INDEX, KeySchema: keySchema(PETS_STATUS_SHARD_ATTRIBUTE), Projection: { ProjectionType: 'ALL' } },
      ],
    }),
  );
  client.destroy();
  // 120 pets written by the previous version: no shard key.
  const old = Array.from({ length: 120 }, (_, index) => ({
    id: 1_000_000 + index * 37,
    name: `old ${index}`,
    categoryId: 1,
    status: PET_STATUSES[index % PET_STATUSES.length],
    createdAt: '2026-01-01T00:00:00.000Z',
  }));
  for (let start = 0; start < old.length; start += 25) {
    await db.send(
      new BatchWriteCommand({ RequestItems: { [TABLE]: old.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
});
afterAll(() => db.destroy());

async function everyPage(pets: DynamoPetRepository, status: PetStatus, limit: number): Promise<number[][]> {
  const pages: number[][] = [];
  let page = await pets.list({ limit, status });
  pages.push(page.pets.map((pet) => pet.id));
  while (page.next) {
    page = await pets.list({ limit, status, after: page.next });
    pages.push(page.pets.map((pet) => pet.id));
  }
  return pages;
}

test('during the upgrade the old index lists every pet; after the backfill the sharded one pages exactly the same', async () => {
  const upgrading = new DynamoPetRepository(db, TABLE, { legacyStatusIndex: PETS_LEGACY_STATUS_INDEX.indexName });
  const sharded = new DynamoPetRepository(db, TABLE);
  // The new version creates pets while the stage upgrades: they carry their shard key from the start.
  for (let index = 0; index < 9; index++) await upgrading.create({ name: `new ${index}`, categoryId: 2, status: 'sold' });

  const before = await everyPage(upgrading, 'sold', 7);
  expect(before.flat()).toHaveLength(40 + 9);
  // Before the backfill the sharded index knows only the new pets: why listPets must not read it yet.
  expect((await everyPage(sharded, 'sold', 7)).flat()).toHaveLength(9);

  expect(await backfillStatusShards(db, TABLE)).toEqual({ scanned: 129, updated: 120 });
  for (const status of PET_STATUSES) {
    expect(await everyPage(sharded, status, 7)).toEqual(await everyPage(upgrading, status, 7));
  }
  // Running it again (an interrupted run, or to be sure) changes nothing.
  expect(await backfillStatusShards(db, TABLE)).toEqual({ scanned: 129, updated: 0 });
});
