/**
 * The DynamoDB the warm, usage and scaling parts share: the local engine `npm start` uses (DynamoDB
 * Local, or dynalite without Java), in memory, with the tables of shared/tables.ts, an API key, and the
 * process environment the handlers read when their modules load.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { issueApiKey } from '#auth/api-keys';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { PET_STATUSES } from '#contract/schemas/pet-status';
import { PETS_STATUS_SHARD_ATTRIBUTE } from '#shared/tables';
import { STATUS_SHARD_HISTORY } from '#shared/status-shards';
import { statusShards } from '#data/status-shards';
import { openLocalStore, type LocalStore } from '#local/engine/local-store';
import { localFunctionEnvironment } from '#local/dev/function-environment';

export const BENCH_ACCOUNT_ID = 'acct_bench';
/** The status index as prod's committed configuration keys it: what a filtered page costs there. */
export const BENCH_STATUS_SHARDS = STATUS_SHARD_HISTORY.prod;

/**
 * The account API's token facts: API Gateway's JWT authorizer has checked the token before a function runs, so the
 * events carry its claims (events.ts accountRequestOf). Only part 1's deleteAccount reaches a user pool (user-pool.ts).
 */
export const BENCH_IDENTITY = {
  endpoint: 'http://127.0.0.1:9',
  userPoolId: 'eu-west-1_bench',
  issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_bench',
  clientId: 'benchclient',
} as const;

export interface BenchStore {
  readonly store: LocalStore;
  readonly engineLabel: string;
  /** A valid API key of BENCH_ACCOUNT_ID, stored hashed like any other. */
  readonly apiKey: string;
  /** A document client as the functions make it (their 2 s bound), for the direct-SDK comparisons. */
  readonly db: DynamoDBDocumentClient;
  /**
   * The SDK's defaults (no request timeout), for bulk loads that are not measured: on a busy machine 20,000 pets
   * take longer, where the functions' 2 s bound would fail the run.
   */
  readonly seeder: DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/** `steadyState`: the full JIT for measured runs; a smoke run only proves the parts run. */
export async function openBenchStore(steadyState: boolean): Promise<BenchStore> {
  const store = await openLocalStore({ tablePrefix: 'bench-', steadyState });
  Object.assign(
    process.env,
    localFunctionEnvironment({
      endpoint: store.endpoint,
      tableNames: store.tableNames,
      logLevel: 'ERROR',
      cognito: BENCH_IDENTITY,
      statusShards: BENCH_STATUS_SHARDS,
    }),
  );
  const db = createDocumentClient(store.endpoint);
  const seeder = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: store.endpoint }));
  const { key, record } = issueApiKey({ accountId: BENCH_ACCOUNT_ID, description: 'bench' });
  await new DynamoApiKeyRepository(db, store.tableNames.apiKeys).create(record);
  return {
    store,
    engineLabel: store.engine === 'dynamodb-local' ? 'Amazon DynamoDB Local (Java, in memory)' : 'dynalite (embedded, pure JS, in memory)',
    apiKey: key,
    db,
    seeder,
    stop: async () => {
      db.destroy();
      seeder.destroy();
      await store.stop();
    },
  };
}

const BATCH_SIZE = 25; // BatchWriteItem's limit
const PARALLEL_BATCHES = 8;

/** Adds `count` pets with ids from `firstId`, statuses in turn, straight through BatchWriteItem. */
export async function seedPets(db: DynamoDBDocumentClient, tableName: string, firstId: number, count: number): Promise<void> {
  const { keyOf } = statusShards(BENCH_STATUS_SHARDS);
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < count; offset += BATCH_SIZE) {
    batches.push(
      Array.from({ length: Math.min(BATCH_SIZE, count - offset) }, (_, index) => {
        const id = firstId + offset + index;
        const status = PET_STATUSES[id % PET_STATUSES.length] ?? 'available';
        return {
          id,
          name: `pet ${id}`,
          categoryId: 1 + (id % 7),
          status,
          createdAt: new Date().toISOString(),
          [PETS_STATUS_SHARD_ATTRIBUTE]: keyOf(status, id),
        };
      }),
    );
  }
  const write = async (items: Record<string, unknown>[]): Promise<void> => {
    let requests = items.map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_BATCHES }, async () => {
      while (next < batches.length) await write(batches[next++] as Record<string, unknown>[]);
    }),
  );
}
