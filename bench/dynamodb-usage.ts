/**
 * Part 3: what each operation costs a deployed stage in DynamoDB — the calls it makes and the
 * capacity DynamoDB reports for them (`ReturnConsumedCapacity: TOTAL`, added to every call by a
 * middleware on the handlers' shared client) — for each way a request can go: a create, a create
 * with `Idempotency-Key`, its replay, a get, a filtered and an unfiltered page, a message, and the
 * authorizer's key lookup. On-demand tables bill exactly these units, so the budgets are the bill.
 * A conditional write whose condition fails is billed as a write but reported without capacity: it
 * is counted apart and charged at its item's size in the "billed" column.
 */
import { dynamoDbClient } from '#data/dynamodb-client';
import type { GatewayFunctions, LambdaFunction } from '#local/gateway/functions';
import { issueApiKey } from '#auth/api-keys';
import { DynamoApiKeyRepository, revokedKeyItem } from '#data/repositories/api-key-repository';
import { BENCH_ACCOUNT_ID, type BenchStore } from './bench-store';
import { authorizerEventFor, lambdaContext, madeUpKey, requestOf } from './events';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, REVOKED_KEYS_LISTED_FOR_DAYS } from '#contract/account-limits';
import type { OperationId } from '#shared/routes';
import { BENCH_IDENTITY } from './bench-store';
import { accountRequest } from './events';
import type { BudgetCheck, Table } from './report';
import { DYNAMODB_BUDGETS } from './dynamodb-budgets';
import { median } from './stats';

const HISTORY_ACCOUNT_ID = 'acct_bench_history';
/** 10 active and 50 revoked keys at about 330 bytes each, with room for long descriptions. */
const LISTING_BYTES_BUDGET = 24_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The history of a free account that created and revoked keys for months: half revoked within the listing
 * window, half before it (as TTL leaves them for a few days). Written straight to the table, as the API
 * would have over that time.
 */
async function seedHistory(bench: BenchStore, count: number): Promise<void> {
  const now = Date.now();
  const items = Array.from({ length: count }, (_, index) => {
    const revokedAt = new Date(
      now - (index % 2 === 0 ? index * 60_000 + 60_000 : (REVOKED_KEYS_LISTED_FOR_DAYS + 1) * DAY_MS + index * 60_000),
    );
    const { record } = issueApiKey({
      accountId: HISTORY_ACCOUNT_ID,
      description: `history ${index}`,
      now: new Date(revokedAt.getTime() - DAY_MS),
    });
    return revokedKeyItem(record, revokedAt);
  });
  for (let start = 0; start < items.length; start += 25) {
    const batch = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    const { UnprocessedItems } = await bench.seeder.send(
      new BatchWriteCommand({ RequestItems: { [bench.store.tableNames.apiKeys]: batch } }),
    );
    if (Object.keys(UnprocessedItems ?? {}).length > 0) throw new Error('the local DynamoDB left history items unwritten');
  }
}

interface Usage {
  calls: number;
  /** Capacity units DynamoDB reported (reads and writes together, as billed on demand). */
  reported: number;
  /** Conditional writes refused by their condition: billed, not reported. */
  refusedWrites: number;
  refusedWriteUnits: number;
  /** The billed units split as the price list splits them (refused writes among the writes). */
  readUnits: number;
  writeUnits: number;
}

const fresh = (): Usage => ({ calls: 0, reported: 0, refusedWrites: 0, refusedWriteUnits: 0, readUnits: 0, writeUnits: 0 });

const WRITE_COMMAND = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

export interface UsageMeter {
  current(): Usage;
  reset(): void;
}

interface ConsumedCapacity {
  readonly CapacityUnits?: number;
}

/** A write unit per started KiB of the item written (DynamoDB's billing for PutItem). */
const writeUnits = (item: unknown): number => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item ?? {})) / 1024));

/** Counts every DynamoDB call the handlers make through the shared client, and their capacity. */
function installUsageMeter(): UsageMeter {
  let usage = fresh();
  dynamoDbClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      usage.calls++;
      const writes = WRITE_COMMAND.test(context.commandName ?? '');
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
        for (const entry of [consumed ?? []].flat()) {
          usage.reported += entry.CapacityUnits ?? 0;
          if (writes) usage.writeUnits += entry.CapacityUnits ?? 0;
          else usage.readUnits += entry.CapacityUnits ?? 0;
        }
        return result;
      } catch (error) {
        if ((error as { name?: unknown }).name === 'ConditionalCheckFailedException') {
          usage.refusedWrites++;
          usage.refusedWriteUnits += writeUnits(input.Item);
          usage.writeUnits += writeUnits(input.Item);
        }
        throw error;
      }
    },
    { step: 'initialize', name: 'benchUsageMeter' },
  );
  return { current: () => usage, reset: () => void (usage = fresh()) };
}

interface Case {
  readonly label: string;
  readonly fn: LambdaFunction;
  readonly event: () => unknown;
  readonly expectStatus?: number;
  /** The budget per request: at most this many calls and billed capacity units. */
  readonly budget: { readonly calls: number; readonly units: number };
  /** Runs once before the measured requests (e.g. the first request a replay repeats). */
  readonly before?: () => Promise<void>;
  /** Fewer requests than the run's count, where a limit of the service would refuse more. */
  readonly requests?: number;
  readonly onAnswer?: (body: string) => void;
}

export interface UsageResult {
  readonly table: Table;
  readonly checks: BudgetCheck[];
  /** Still counting: the cost part (cost-inputs.ts) measures its requests with it. */
  readonly meter: UsageMeter;
}

export async function runDynamoDbUsage(
  functions: GatewayFunctions,
  bench: BenchStore,
  requests: number,
  petId: number,
  /** Revoked keys of the account whose account API calls are measured: what its history must not cost. */
  history: number,
): Promise<UsageResult> {
  const meter = installUsageMeter();
  const op = (name: OperationId): LambdaFunction => functions.operations.get(name) as LambdaFunction;
  const account = { sub: HISTORY_ACCOUNT_ID, issuer: BENCH_IDENTITY.issuer, clientId: BENCH_IDENTITY.clientId };
  const createdKeyIds: string[] = [];
  let sequence = 0;
  const newPet = () => ({ name: `usage ${sequence++}`, categoryId: 3, status: 'sold' });
  const replayed = newPet();
  const replayKey = `usage-replay-${Date.now()}`;
  const cases: Case[] = [
    {
      label: 'createPet',
      fn: op('createPet'),
      event: () => requestOf.createPet(newPet()),
      expectStatus: 201,
      // One put: a unit for the table and one for the status index, which holds every pet too.
      budget: DYNAMODB_BUDGETS.createPet,
    },
    {
      label: 'createPet with Idempotency-Key',
      fn: op('createPet'),
      event: () => requestOf.createPet(newPet(), `usage-${Date.now()}-${sequence++}`),
      expectStatus: 201,
      // The key's record (holding the pet), then the pet as above.
      budget: DYNAMODB_BUDGETS['createPet with Idempotency-Key'],
    },
    {
      label: 'createPet replayed (same key and body)',
      fn: op('createPet'),
      event: () => requestOf.createPet(replayed, replayKey),
      expectStatus: 201,
      before: async () => {
        await op('createPet')(requestOf.createPet(replayed, replayKey), lambdaContext('createPet'));
      },
      // Two refused conditional writes and two consistent reads: the record, then the item.
      budget: DYNAMODB_BUDGETS['createPet replayed (same key and body)'],
    },
    {
      label: 'getPet',
      fn: op('getPet'),
      event: () => requestOf.getPet(petId),
      expectStatus: 200,
      budget: DYNAMODB_BUDGETS.getPet,
    },
    {
      label: 'listPets ?status=sold&limit=20',
      fn: op('listPets'),
      event: () => requestOf.listPets({ status: 'sold', limit: '20' }),
      expectStatus: 200,
      // One Query per shard of the status index (prod's 2: bench-store.ts), each at least half a read unit (eventually consistent).
      budget: DYNAMODB_BUDGETS['listPets ?status=sold&limit=20'],
    },
    {
      label: 'listPets ?limit=20 (unfiltered)',
      fn: op('listPets'),
      event: () => requestOf.listPets({ limit: '20' }),
      expectStatus: 200,
      budget: DYNAMODB_BUDGETS['listPets ?limit=20 (unfiltered)'],
    },
    {
      label: 'submitMessage',
      fn: op('submitMessage'),
      event: () => requestOf.submitMessage(`usage ${sequence++}`),
      expectStatus: 202,
      budget: DYNAMODB_BUDGETS.submitMessage,
    },
    {
      // An anonymous flood of random or mistyped keys: refused in memory by the key's checksum.
      label: 'authorizer, made-up key',
      fn: functions.authorizer,
      event: () => authorizerEventFor(requestOf.listPets({}, `Bearer ${madeUpKey()}`)),
      budget: DYNAMODB_BUDGETS['authorizer, made-up key'],
    },
    {
      // A key's call after the cache window (per authorizer instance, once a minute): one consistent read of its record.
      label: 'authorizer, key not cached',
      fn: functions.authorizer,
      before: async () => {
        unseenKeys.push(...(await issueKeys(requests, { usedNow: true })));
      },
      event: () => authorizerEventFor(requestOf.listPets({}, `Bearer ${unseenKeys.pop() ?? ''}`)),
      budget: DYNAMODB_BUDGETS['authorizer, key not cached'],
    },
    {
      // Once an hour per key at most (LAST_USED_RESOLUTION_MS): the read, then the portal's "last used",
      // a write to the key's item and its account index.
      label: 'authorizer, key not cached, first use in the hour',
      fn: functions.authorizer,
      before: async () => {
        unseenKeys.push(...(await issueKeys(requests)));
      },
      event: () => authorizerEventFor(requestOf.listPets({}, `Bearer ${unseenKeys.pop() ?? ''}`)),
      budget: DYNAMODB_BUDGETS['authorizer, key not cached, first use in the hour'],
    },
    {
      label: `listAccountKeys, ${history} revoked keys`,
      fn: op('listAccountKeys'),
      event: () => accountRequest({ method: 'GET', routePath: '/account/keys', rawPath: '/account/keys' }, account),
      expectStatus: 200,
      before: () => seedHistory(bench, history),
      // One Query of what the listing shows (at most 10 active and 50 revoked keys, eventually consistent), never the history.
      budget: DYNAMODB_BUDGETS['listAccountKeys, long history'],
    },
    {
      label: `createAccountKey, ${history} revoked keys`,
      fn: op('createAccountKey'),
      requests: MAX_ACTIVE_KEYS_PER_ACCOUNT,
      event: () =>
        accountRequest(
          { method: 'POST', routePath: '/account/keys', rawPath: '/account/keys', body: JSON.stringify({ description: 'bench' }) },
          account,
        ),
      expectStatus: 201,
      onAnswer: (body) => createdKeyIds.push((JSON.parse(body) as { keyId: string }).keyId),
      // The claim (a slot and the day's count) on the account's item, then the key's record and its index entry;
      // the day's first create first tries the same day's count (refused) before it starts the day.
      budget: DYNAMODB_BUDGETS['createAccountKey, long history'],
    },
    {
      label: `revokeAccountKey, ${history} revoked keys`,
      fn: op('revokeAccountKey'),
      requests: MAX_ACTIVE_KEYS_PER_ACCOUNT,
      event: () => {
        const keyId = createdKeyIds.pop() ?? '';
        return accountRequest(
          { method: 'DELETE' as 'GET', routePath: '/account/keys/{keyId}', rawPath: `/account/keys/${keyId}`, pathParameters: { keyId } },
          account,
        );
      },
      expectStatus: 200,
      // The listing's Query, the key's revocation (its item and both index entries), the slot's release.
      budget: DYNAMODB_BUDGETS['revokeAccountKey, long history'],
    },
  ];

  const rows: string[][] = [];
  const checks: BudgetCheck[] = [];
  const unseenKeys: string[] = [];
  const keys = new DynamoApiKeyRepository(bench.db, bench.store.tableNames.apiKeys);
  async function issueKeys(count: number, options: { usedNow?: boolean } = {}): Promise<string[]> {
    const issued = Array.from({ length: count }, () => issueApiKey({ accountId: BENCH_ACCOUNT_ID }));
    await Promise.all(issued.map((key) => keys.create(key.record)));
    if (options.usedNow) await Promise.all(issued.map((key) => keys.recordUse(key.record, new Date())));
    return issued.map((key) => key.key);
  }
  for (const item of cases) {
    await item.before?.();
    meter.reset();
    const count = item.requests ?? requests;
    const times: number[] = [];
    let answerBytes = 0;
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      const result = (await item.fn(item.event(), lambdaContext(item.label.split(/[ ,]/)[0] as string))) as {
        statusCode?: number;
        body?: string;
      };
      times.push(performance.now() - started);
      if (item.expectStatus !== undefined && result.statusCode !== item.expectStatus) {
        throw new Error(`${item.label} answered ${result.statusCode}, expected ${item.expectStatus}: ${JSON.stringify(result)}`);
      }
      answerBytes = Math.max(answerBytes, Buffer.byteLength(result.body ?? ''));
      item.onAnswer?.(result.body ?? '');
    }
    const usage = meter.current();
    const per = (value: number): number => value / count;
    const billed = per(usage.reported + usage.refusedWriteUnits);
    rows.push([
      item.label,
      per(usage.calls).toFixed(2),
      per(usage.reported).toFixed(2),
      per(usage.refusedWrites).toFixed(2),
      billed.toFixed(2),
      median(times).toFixed(1),
      String(answerBytes),
    ]);
    checks.push({
      name: `DynamoDB per request ${item.label}`,
      limit: `≤ ${item.budget.calls} calls, ≤ ${item.budget.units} units`,
      measured: `${per(usage.calls).toFixed(2)} calls, ${billed.toFixed(2)} units`,
      passed: per(usage.calls) <= item.budget.calls && billed <= item.budget.units,
    });
  }
  const listing = rows.find(([label]) => label?.startsWith('listAccountKeys'));
  checks.push({
    name: `listAccountKeys answer at ${history} revoked keys`,
    limit: `≤ ${LISTING_BYTES_BUDGET} bytes`,
    measured: `${listing?.[6] ?? '?'} bytes`,
    passed: Number(listing?.[6]) <= LISTING_BYTES_BUDGET,
  });
  return {
    table: {
      title: 'DynamoDB calls and capacity per request (what a deployed stage is billed)',
      note: `${requests} requests each through the handler (in process). Units: read and write capacity units as DynamoDB reports them with ReturnConsumedCapacity; "refused writes" are conditional writes whose condition failed, billed at their item's size but reported without capacity.`,
      columns: ['request', 'calls', 'reported units', 'refused writes', 'billed units', 'median ms', 'largest answer bytes'],
      rows,
    },
    checks,
    meter,
  };
}
