/**
 * Part 6: partition heat. A local engine has no partitions, so no run against it can show a hot key; this
 * part replays creates at a stage's createPet rate through the real id function (lambda/data/pet-ids.ts) and the
 * real index-key function (lambda/data/status-shards.ts, with the shard count that rate gets from
 * shared/status-shards.ts) and counts, second by second, the writes each key
 * takes: every pet's base-table key and the status index key it is written under. DynamoDB serves at most
 * 1,000 write units per second per partition, and a key never spans partitions (for the index, because its
 * sort key only grows, split-for-heat cannot help); each create of a pet under 1 KB is one unit per key.
 */
import { newPetId } from '#data/pet-ids';
import { PET_STATUSES, type PetStatus } from '#contract/schemas/pet-status';
import { statusShards } from '#data/status-shards';
import { readStageOptions } from '#shared/stage-options';
import { CREATE_PET_ROUTE_KEY, routeThrottle, throttlingOf } from '#shared/stage-throttling';
import { statusShardsFor } from '#shared/status-shards';
import type { BudgetCheck, Table } from './report';

const PARTITION_WRITES_PER_SECOND = 1_000;
/** prod's createPet throttle, the 10,000 requests/s month of docs/capacity.md, and the former launch peak. */
const PROD_CREATES_PER_SECOND = routeThrottle(throttlingOf(readStageOptions('prod').options).pets, CREATE_PET_ROUTE_KEY).rateLimit;
const RATES = [PROD_CREATES_PER_SECOND, 1_500, 10_000];

/** A small seeded generator (mulberry32), so every run replays the same workload. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Heat {
  readonly hottestKey: string;
  readonly peak: number;
}

/** The hottest key's writes in its busiest second, for a way of naming the index key. */
function replay(seconds: number, rate: number, indexKey: (status: PetStatus, id: number) => string): { index: Heat; table: Heat } {
  const random = seeded(20_261_124);
  const start = Date.UTC(2026, 10, 24);
  let index: Heat = { hottestKey: '', peak: 0 };
  let table: Heat = { hottestKey: '', peak: 0 };
  for (let second = 0; second < seconds; second++) {
    const perIndexKey = new Map<string, number>();
    const perTableKey = new Map<number, number>();
    for (let create = 0; create < rate; create++) {
      const id = newPetId(start + second * 1_000 + Math.floor(random() * 1_000), Math.floor(random() * 4_096));
      // The worst a client can send: every create of one status.
      const key = indexKey('available', id);
      perIndexKey.set(key, (perIndexKey.get(key) ?? 0) + 1);
      perTableKey.set(id, (perTableKey.get(id) ?? 0) + 1);
    }
    for (const [key, writes] of perIndexKey) if (writes > index.peak) index = { hottestKey: key, peak: writes };
    for (const [key, writes] of perTableKey) if (writes > table.peak) table = { hottestKey: String(key), peak: writes };
  }
  return { index, table };
}

export interface PartitionHeatResult {
  readonly table: Table;
  readonly checks: BudgetCheck[];
}

export function runPartitionHeat(seconds: number): PartitionHeatResult {
  const layouts = [
    { rate: PROD_CREATES_PER_SECOND, label: 'status only (one key per status)', key: (status: PetStatus) => status, sized: false },
    ...RATES.map((rate) => {
      const shards = statusShardsFor(rate);
      return { rate, label: `status#(id mod ${shards})`, key: statusShards([{ shards }]).keyOf, sized: true };
    }),
  ];
  const rows: string[][] = [];
  const checks: BudgetCheck[] = [];
  for (const layout of layouts) {
    const heat = replay(seconds, layout.rate, layout.key);
    rows.push([
      String(layout.rate),
      layout.label,
      heat.index.hottestKey,
      String(heat.index.peak),
      `${((heat.index.peak / PARTITION_WRITES_PER_SECOND) * 100).toFixed(0)} %`,
      String(heat.table.peak),
    ]);
    if (layout.sized) {
      checks.push({
        name: `partition heat at ${layout.rate} creates/s, all of one status, hottest key`,
        limit: `< ${PARTITION_WRITES_PER_SECOND} writes/s on every index and table key`,
        measured: `index ${heat.index.peak}/s (${heat.index.hottestKey}), table ${heat.table.peak}/s`,
        passed: heat.index.peak < PARTITION_WRITES_PER_SECOND && heat.table.peak < PARTITION_WRITES_PER_SECOND,
      });
    }
  }
  return {
    table: {
      title: 'Partition heat (replayed through the real id and index-key functions)',
      note:
        `Creates for ${seconds} s at each rate, every one of them ${PET_STATUSES[0]} (the worst a client can send), over the shards that rate gets ` +
        `(one per ${PARTITION_WRITES_PER_SECOND / 2}/s: shared/status-shards.ts); the busiest second of the hottest key, against DynamoDB's ` +
        `${PARTITION_WRITES_PER_SECOND} write units/s per partition.`,
      columns: [
        'creates/s',
        'status index key',
        'hottest index key',
        'peak writes/s',
        'of the partition limit',
        'peak writes/s on one table key',
      ],
      rows,
    },
    checks,
  };
}
