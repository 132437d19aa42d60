/**
 * Part 6: partition heat. A local engine has no partitions, so no run against it can show a hot key; this
 * part replays a launch-peak workload through the real id function (lambda/data/pet-ids.ts) and the real
 * index-key function (shared/tables.ts statusShardOf) and counts, second by second, the writes each key
 * takes: every pet's base-table key and the status index key it is written under. DynamoDB serves at most
 * 1,000 write units per second per partition, and a key never spans partitions (for the index, because its
 * sort key only grows, split-for-heat cannot help); each create of a pet under 1 KB is one unit per key.
 */
import { newPetId } from '#data/pet-ids';
import { PET_STATUSES, type PetStatus } from '#contract/schemas/pet-status';
import { PETS_STATUS_SHARDS, statusShardKey, statusShardOf } from '#shared/tables';
import type { BudgetCheck, Table } from './report';

const PARTITION_WRITES_PER_SECOND = 1_000;
/** The issue's launch peak: what the budget holds the design to. */
const CREATES_PER_SECOND = 10_000;
const STATUS_MIX: Readonly<Record<PetStatus, number>> = { available: 0.8, pending: 0.15, sold: 0.05 };

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
function replay(seconds: number, indexKey: (status: PetStatus, id: number) => string): { index: Heat; table: Heat } {
  const random = seeded(20_261_124);
  const start = Date.UTC(2026, 10, 24);
  let index: Heat = { hottestKey: '', peak: 0 };
  let table: Heat = { hottestKey: '', peak: 0 };
  for (let second = 0; second < seconds; second++) {
    const perIndexKey = new Map<string, number>();
    const perTableKey = new Map<number, number>();
    for (let create = 0; create < CREATES_PER_SECOND; create++) {
      const id = newPetId(start + second * 1_000 + Math.floor(random() * 1_000), Math.floor(random() * 4_096));
      const draw = random();
      const status = draw < STATUS_MIX.available ? 'available' : draw < STATUS_MIX.available + STATUS_MIX.pending ? 'pending' : 'sold';
      const key = indexKey(status, id);
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
    { label: 'status only (one key per status)', key: (status: PetStatus) => status },
    ...[4, 8, PETS_STATUS_SHARDS, 16]
      .filter((shards, index, all) => all.indexOf(shards) === index)
      .map((shards) => ({
        label: `status#(id mod ${shards})${shards === PETS_STATUS_SHARDS ? ' (deployed)' : ''}`,
        key: (status: PetStatus, id: number) =>
          shards === PETS_STATUS_SHARDS ? statusShardOf(status, id) : statusShardKey(status, id % shards),
      })),
  ];
  const rows: string[][] = [];
  const checks: BudgetCheck[] = [];
  for (const layout of layouts) {
    const heat = replay(seconds, layout.key);
    rows.push([
      layout.label,
      heat.index.hottestKey,
      String(heat.index.peak),
      `${((heat.index.peak / PARTITION_WRITES_PER_SECOND) * 100).toFixed(0)} %`,
      String(heat.table.peak),
    ]);
    if (layout.label.endsWith('(deployed)')) {
      checks.push({
        name: `partition heat at ${CREATES_PER_SECOND} creates/s (${STATUS_MIX.available * 100} % available), hottest key`,
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
        `${CREATES_PER_SECOND} creates/s for ${seconds} s, statuses ${PET_STATUSES.map((status) => `${status} ${STATUS_MIX[status] * 100} %`).join(', ')}; ` +
        `the busiest second of the hottest key, against DynamoDB's ${PARTITION_WRITES_PER_SECOND} write units/s per partition.`,
      columns: ['status index key', 'hottest index key', 'peak writes/s', 'of the partition limit', 'peak writes/s on one table key'],
      rows,
    },
    checks,
  };
}
