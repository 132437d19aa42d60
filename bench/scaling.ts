/**
 * Part 4: scaling. The listing latency at 1,000 and at 20,000 stored pets, through the authorizer
 * and the listPets function exactly as the gateway emulation runs them (shared/gateway-events.ts dispatch).
 * A page must cost the same whatever the table size: a Query on the status index and a Scan that
 * both stop after one page.
 */
import { ROUTES } from '#shared/routes';
import { dispatch, type GatewayFunctions } from '#shared/gateway-events';
import { seedPets, type BenchStore } from './bench-store';
import { requestOf } from './events';
import type { BudgetCheck, Table } from './report';
import { median, ms, percentile } from './stats';

export const SCALING_BUDGET_RATIO = 1.3;
const LIST_ROUTE = ROUTES.find((route) => route.operationId === 'listPets');

const QUERIES: readonly { label: string; query: Record<string, string> }[] = [
  { label: 'GET /v1/pets?status=sold&limit=20', query: { status: 'sold', limit: '20' } },
  { label: 'GET /v1/pets?limit=20 (unfiltered)', query: { limit: '20' } },
];

async function latencies(functions: GatewayFunctions, apiKey: string, query: Record<string, string>, requests: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < requests; index++) {
    const event = requestOf.listPets(query, `Bearer ${apiKey}`);
    const started = performance.now();
    const response = await dispatch(functions, event, LIST_ROUTE);
    samples.push(performance.now() - started);
    const pets = JSON.parse(response.body.toString()) as unknown[];
    if (response.statusCode !== 200 || pets.length !== 20)
      throw new Error(`listing answered ${response.statusCode} with ${pets.length} pets`);
  }
  return samples;
}

export interface ScalingResult {
  readonly table: Table;
  readonly checks: BudgetCheck[];
}

/** Expects an empty pets table: seeds `small`, measures, tops up to `large`, measures again. */
export async function runScaling(
  functions: GatewayFunctions,
  bench: BenchStore,
  sizes: { small: number; large: number },
  requests: number,
): Promise<ScalingResult> {
  const table = bench.store.tableNames.pets;
  const measured = new Map<string, { small: number[]; large: number[] }>();
  for (const [size, from, count] of [
    ['small', 1, sizes.small],
    ['large', sizes.small + 1, sizes.large - sizes.small],
  ] as const) {
    await seedPets(bench.seeder, table, from, count);
    for (const { label, query } of QUERIES) {
      // Warm-up: the first size is measured first, so without it JIT warm-up would flatter the larger one.
      await latencies(functions, bench.apiKey, query, Math.min(200, requests));
      const entry = measured.get(label) ?? { small: [], large: [] };
      entry[size] = await latencies(functions, bench.apiKey, query, requests);
      measured.set(label, entry);
    }
  }
  const rows: string[][] = [];
  const checks: BudgetCheck[] = [];
  for (const [label, { small, large }] of measured) {
    const ratio = median(large) / median(small);
    rows.push([
      label,
      `${ms(median(small), 2)} / ${ms(percentile(small, 99), 2)}`,
      `${ms(median(large), 2)} / ${ms(percentile(large, 99), 2)}`,
      `${ratio.toFixed(2)}×`,
    ]);
    checks.push({
      name: `scaling ${label}`,
      limit: `≤ ${SCALING_BUDGET_RATIO}× at ${sizes.large} vs ${sizes.small}`,
      measured: `${ratio.toFixed(2)}×`,
      passed: ratio <= SCALING_BUDGET_RATIO,
    });
  }
  return {
    table: {
      title: `Scaling: a page of 20 at ${sizes.small.toLocaleString('en')} and ${sizes.large.toLocaleString('en')} stored pets`,
      note: `${requests} sequential requests each through authorizer + listPets (gateway emulation, in process); pets seeded with BatchWriteItem.`,
      columns: ['request', `${sizes.small} pets median / p99 ms`, `${sizes.large} pets median / p99 ms`, 'ratio'],
      rows,
    },
    checks,
  };
}
