/**
 * Part 2: warm overhead. Each handler is invoked in this process, like a warm Lambda, on payload 2.0
 * events carrying the authorizer's context, against the local DynamoDB. The SDK's share of every
 * invocation is measured in the same call (sdk-timer.ts) and subtracted: what is reported is our own
 * code. The same DynamoDB calls made directly with the SDK are timed alongside, for scale.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayFunctions, LambdaFunction } from '#local/gateway/functions';
import type { BenchStore } from './bench-store';
import { directCalls } from './direct-calls';
import { authorizerEventFor, lambdaContext, madeUpKey, requestOf } from './events';
import type { BudgetCheck, Table } from './report';
import type { SdkTimer } from './sdk-timer';
import { median, ms, percentile } from './stats';

/** A handler that makes no DynamoDB call: its own code, median. */
export const WARM_OVERHEAD_BUDGET_MS = 0.25;
/**
 * A handler that makes DynamoDB calls: its own code at most this share of the same calls made directly, median of the
 * same run. A share, not milliseconds: the same code measured 0.13-0.17 ms on a machine where a direct put took 0.8-1.3
 * ms, and 0.43-0.45 ms where it took 2.4-3 ms (bench/results.md, issue 41): the figure follows the machine, the share
 * does not (13-18 % on both). 25 % is what 0.25 ms was where the budget was first set (direct calls of 0.7-1.3 ms).
 */
export const WARM_OVERHEAD_SHARE_OF_DIRECT = 0.25;

interface Case {
  readonly label: string;
  readonly fn: LambdaFunction;
  readonly event: () => unknown;
  readonly expectStatus?: number;
  /** The DynamoDB call(s) the handler makes, made directly. */
  readonly direct?: () => Promise<unknown>;
}

function cases(functions: GatewayFunctions, bench: BenchStore, petId: number): Case[] {
  const { db, store } = bench;
  const tables = store.tableNames;
  const op = (name: 'listPets' | 'createPet' | 'getPet' | 'submitMessage'): LambdaFunction =>
    functions.operations.get(name) as LambdaFunction;
  const bearer = `Bearer ${bench.apiKey}`;
  const direct = directCalls(db, tables);
  let sequence = 0;
  const newPet = () => ({ name: `warm ${sequence++}`, categoryId: 3, status: 'pending' });
  return [
    {
      label: 'authorizer (key cached)',
      fn: functions.authorizer,
      event: () => authorizerEventFor(requestOf.listPets({}, bearer)),
    },
    {
      label: 'authorizer (made-up key, refused by its checksum)',
      fn: functions.authorizer,
      event: () => authorizerEventFor(requestOf.listPets({}, `Bearer ${madeUpKey()}`)),
    },
    {
      label: 'getPet',
      fn: op('getPet'),
      event: () => requestOf.getPet(petId),
      expectStatus: 200,
      direct: () => direct.getPet(petId),
    },
    {
      label: 'listPets ?status=sold&limit=20',
      fn: op('listPets'),
      event: () => requestOf.listPets({ status: 'sold', limit: '20' }),
      expectStatus: 200,
      direct: () => direct.listByStatus('sold', 20),
    },
    {
      label: 'createPet',
      fn: op('createPet'),
      event: () => requestOf.createPet(newPet()),
      expectStatus: 201,
      direct: () =>
        direct.putNew('pets', {
          id: Date.now() * 4096 + sequence++,
          name: 'direct',
          categoryId: 3,
          status: 'pending',
          createdAt: new Date().toISOString(),
        }),
    },
    {
      label: 'createPet with Idempotency-Key',
      fn: op('createPet'),
      event: () => requestOf.createPet(newPet(), randomUUID()),
      expectStatus: 201,
      // The key's record (holding the pet), then the pet: one after the other, as the handler makes them.
      direct: async () => {
        const id = Date.now() * 4096 + sequence++;
        const pet = { id, name: 'direct', categoryId: 3, status: 'pending', createdAt: new Date().toISOString() };
        await direct.putNew('idempotency', { id: randomUUID(), expiration: Math.floor(Date.now() / 1000) + 86_400, item: pet });
        await direct.putNew('pets', pet);
      },
    },
    {
      label: 'submitMessage',
      fn: op('submitMessage'),
      event: () => requestOf.submitMessage(`hello ${sequence++}`),
      expectStatus: 202,
      direct: () =>
        direct.putNew('messages', {
          id: randomUUID(),
          message: 'direct',
          status: 'queued',
          accountId: 'acct_bench',
          createdAt: new Date().toISOString(),
        }),
    },
    {
      label: 'notFound',
      fn: functions.notFound,
      event: () => requestOf.notFound(),
      expectStatus: 404,
    },
  ];
}

async function measure(item: Case, iterations: number, timer: SdkTimer): Promise<{ own: number[]; sdk: number[]; direct: number[] }> {
  const own: number[] = [];
  const sdk: number[] = [];
  const direct: number[] = [];
  const name = item.label.split(' ')[0] as string;
  for (let index = 0; index < iterations; index++) {
    const event = item.event();
    const context = lambdaContext(name);
    timer.reset();
    const started = performance.now();
    const result = (await item.fn(event, context)) as { statusCode?: number };
    const total = performance.now() - started;
    if (item.expectStatus !== undefined && result.statusCode !== item.expectStatus) {
      throw new Error(`${item.label} answered ${result.statusCode}, expected ${item.expectStatus}: ${JSON.stringify(result)}`);
    }
    own.push(total - timer.elapsed());
    sdk.push(timer.elapsed());
    if (item.direct) {
      const directStarted = performance.now();
      await item.direct();
      direct.push(performance.now() - directStarted);
    }
  }
  return { own, sdk, direct };
}

export interface WarmResult {
  readonly table: Table;
  readonly checks: BudgetCheck[];
}

export async function runWarmOverhead(
  functions: GatewayFunctions,
  bench: BenchStore,
  timer: SdkTimer,
  iterations: number,
  petId: number,
): Promise<WarmResult> {
  const rows: string[][] = [];
  const checks: BudgetCheck[] = [];
  for (const item of cases(functions, bench, petId)) {
    // Warm-up: JIT, the authorizer's key cache, keep-alive connections.
    await measure(item, Math.min(200, iterations), timer);
    const { own, sdk, direct } = await measure(item, iterations, timer);
    const ownMedian = median(own);
    rows.push([item.label, ms(ownMedian, 3), ms(percentile(own, 99), 3), ms(median(sdk), 2), direct.length ? ms(median(direct), 2) : '–']);
    const budget = direct.length ? WARM_OVERHEAD_SHARE_OF_DIRECT * median(direct) : WARM_OVERHEAD_BUDGET_MS;
    checks.push({
      name: `warm overhead ${item.label}`,
      limit: direct.length
        ? `≤ ${100 * WARM_OVERHEAD_SHARE_OF_DIRECT} % of the direct calls' ${ms(median(direct), 2)} ms (${ms(budget, 3)} ms)`
        : `≤ ${budget} ms median`,
      measured: `${ms(ownMedian, 3)} ms`,
      passed: ownMedian <= budget,
    });
  }
  return {
    table: {
      title: 'Warm overhead (in-process invocation, DynamoDB round trip excluded)',
      note: `${iterations} invocations each after a warm-up. "own code" = handler time minus time inside the SDK's send (measured in the same call); "direct SDK" = the same DynamoDB call made directly, right after.`,
      columns: ['handler', 'own code median ms', 'own code p99 ms', 'inside SDK median ms', 'direct SDK median ms'],
      rows,
    },
    checks,
  };
}
