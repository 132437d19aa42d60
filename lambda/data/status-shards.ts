import { checkedLayout, STATUS_SHARDS_ENV, type StatusShardLayout } from '#shared/status-shards';
import { statusShardKey } from '#shared/tables';
import { newPetId } from './pet-ids';

/** Which status index key a pet is written under, and which keys can hold the pets of a page. */
export interface StatusShards {
  /** The key a new pet is written under: its generation's `status#(id mod shards)`, kept for good. */
  readonly keyOf: (status: string, id: number) => string;
  /** Every key that can hold a pet of `status` with an id above `afterId`. */
  readonly keysAfter: (status: string, afterId?: number) => string[];
}

/**
 * Ids are time-ordered (pet-ids.ts), so a generation's start time is an id: it holds the ids from its first to the
 * next one's. A page after id c reads every key of every generation that can still hold an id above c. The keys
 * of generations are the same names from `#0` up, so that is the largest of their counts: once a page is past a
 * generation that had more, it costs the newer count.
 */
export function statusShards(layout: StatusShardLayout): StatusShards {
  const generations = layout.map(({ from, shards }) => ({ firstId: from === undefined ? 0 : newPetId(Date.parse(from), 0), shards }));
  const keys = (status: string, count: number) => Array.from({ length: count }, (_, shard) => statusShardKey(status, shard));
  return {
    keyOf: (status, id) => {
      const { shards } = generations.findLast(({ firstId }) => firstId <= id) ?? { shards: 1 };
      return statusShardKey(status, id % shards);
    },
    keysAfter: (status, afterId = 0) => {
      const reaching = generations.filter((_, index) => (generations[index + 1]?.firstId ?? Infinity) > afterId + 1);
      return keys(status, Math.max(...reaching.map(({ shards }) => shards)));
    },
  };
}

/** The layout the stack (or the local server) gives the function. */
export function statusShardsFromEnvironment(): StatusShards {
  const value = process.env[STATUS_SHARDS_ENV];
  if (!value) throw new Error(`${STATUS_SHARDS_ENV} is not set`);
  return statusShards(checkedLayout(JSON.parse(value)));
}
