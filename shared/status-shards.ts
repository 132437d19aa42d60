/**
 * How many keys the pets' status index spreads each status over (`available#0` … `available#n-1`): as many as the
 * stage's createPet rate needs and no more, since a filtered page queries every one (docs/capacity.md, "Status
 * shards"). A stage's layout is its history: each change of the count is a generation from a given time on, so the
 * pets already written keep their keys, cursors keep their meaning and no deploy rewrites a pet. The stack and the
 * local server hand it to the functions in STATUS_SHARDS_ENV.
 */
import type { StageName } from './stages';

/** Half of the 1,000 writes/s one index partition takes: room for uneven ids, a burst, every create of one status. */
export const STATUS_SHARD_WRITES_PER_SECOND = 500;

export interface StatusShardGeneration {
  /** When creates start using it (ISO 8601, UTC); the first generation has none: it holds every pet before the next. */
  readonly from?: string;
  readonly shards: number;
}

/** A stage's generations, oldest first. */
export type StatusShardLayout = readonly StatusShardGeneration[];

/**
 * Each stage's layout. Append, never edit: the pets of a stage are keyed by every generation it has run. A new
 * generation's `from` must come after the deploy that adds it has ended, so that no function still running the
 * previous layout creates or lists a pet under it (docs/deploy-reference.md, "Changing the status shards").
 */
export const STATUS_SHARD_HISTORY: Readonly<Record<StageName, StatusShardLayout>> = {
  dev: [{ shards: 1 }],
  staging: [{ shards: 1 }],
  prod: [{ shards: 2 }],
};

export const STATUS_SHARDS_ENV = 'PETS_STATUS_SHARDS';

export const statusShardsFor = (createsPerSecond: number): number =>
  Math.max(1, Math.ceil(createsPerSecond / STATUS_SHARD_WRITES_PER_SECOND));

/** A layout as written to STATUS_SHARDS_ENV or read from it, refused unless it is one a function can key pets by. */
export function checkedLayout(layout: unknown): StatusShardLayout {
  const generations = Array.isArray(layout) ? (layout as unknown[]) : [];
  let previous = -Infinity;
  generations.forEach((generation, index) => {
    const { from, shards, ...rest } = (generation ?? {}) as Record<string, unknown>;
    const start = typeof from === 'string' ? Date.parse(from) : NaN;
    const fromValid = index === 0 ? from === undefined : start > previous;
    if (!Number.isSafeInteger(shards) || (shards as number) < 1 || !fromValid || Object.keys(rest).length > 0)
      throw new Error(
        `status shard layout ${JSON.stringify(layout)}: generation ${index + 1} is not { ${index === 0 ? '' : 'from: <a later time>, '}shards: <1 or more> }`,
      );
    if (index > 0) previous = start;
  });
  if (generations.length === 0) throw new Error(`status shard layout ${JSON.stringify(layout)}: no generation`);
  return generations as StatusShardLayout;
}

/** The stage's layout, refused when its newest generation is not what its createPet rate (creates/s) needs. */
export function statusShardLayout(stage: StageName, rate: number, now: Date = new Date()): StatusShardLayout {
  const layout = checkedLayout(STATUS_SHARD_HISTORY[stage]);
  const wanted = statusShardsFor(rate);
  const current = layout.at(-1)?.shards;
  if (current !== wanted) {
    // A suggestion only: midnight UTC at least a day ahead, after any deploy started today has ended.
    const from = new Date(Math.ceil((now.getTime() + 86_400_000) / 86_400_000) * 86_400_000).toISOString();
    throw new Error(
      `createPet at ${rate} creates/s needs ${wanted} status shard${wanted > 1 ? 's' : ''} (one per ${STATUS_SHARD_WRITES_PER_SECOND}/s); ` +
        `${stage} writes ${current}: append { from: '${from}', shards: ${wanted} } to ${stage}'s STATUS_SHARD_HISTORY in ` +
        `shared/status-shards.ts, a time after this deploy has ended (docs/deploy-reference.md, "Changing the status shards")`,
    );
  }
  return layout;
}
