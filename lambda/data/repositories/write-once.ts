import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { IdempotencyKeyReusedError } from '#contract/domain-errors';
import { isSameWrite, putIf, putIfAbsent, withWriteToken, type Tokened } from './conditional-put';

/** An item as prepared for a write: its attributes and its write token (conditional-put.ts). */
/** What an `Idempotency-Key` request claims: its record's key and the request it stands for. */
export interface IdempotencyClaim {
  /** Scoped to the operation and the account: the same key elsewhere is another request. */
  readonly recordKey: string;
  /** The validated input, hashed: the same key with another body is refused (422). */
  readonly payloadHash: string;
  readonly windowSeconds: number;
}

export type PreparedItem = Tokened<Record<string, unknown>>;

/** What a write under a claim stored: the item, and whether an earlier request with the key stored it. */
export interface Written<T> {
  readonly value: T;
  /** An earlier request with the same `Idempotency-Key` wrote it; this one stored nothing new. */
  readonly replayed: boolean;
}

export interface WriteOnceTarget {
  readonly db: DynamoDBDocumentClient;
  /** The table of the items, and the name of their key attribute. */
  readonly tableName: string;
  readonly keyName: string;
  /** The table of the claims (shared/tables.ts `idempotency`, TTL on `expiration`). */
  readonly recordsTable: string;
}

/** What a claim record holds: the write it promises, so any request with the key can finish it. */
type ClaimRecord = Tokened<{
  readonly id: string;
  readonly payloadHash: string;
  readonly expiration: number;
  readonly item: PreparedItem;
}>;

const MAX_ATTEMPTS = 5;

/**
 * Writes the item of an `Idempotency-Key` request exactly once, whatever fails and however many
 * duplicates arrive, and returns the item that stands for the key. Hand-written because the usual
 * protocol (Powertools' idempotency utility: mark the key in progress, write, then save the answer)
 * leaves a window in which the item is stored but its answer is not — a crash, timeout or failed save
 * there, and a retry stores the item a second time — and answers concurrent duplicates 409. Here the
 * key's record is written first and carries the intended item; the item is then written with a
 * conditional put that succeeds once. A duplicate, concurrent or later, finds the record and makes
 * the same conditional put of the same item, so it either finishes a write that was cut off or finds
 * it done. Two writes, no update; only PutItem and GetItem, which both local engines (DynamoDB Local and dynalite) support.
 *
 * `prepare` draws a fresh key for the item (pets and messages get random-ish keys): when the
 * recorded key turns out taken by another item, the record is moved to a fresh one, once, by
 * whichever duplicate notices first; the others follow the record. "Another item" is one whose
 * write token differs from the recorded one: only the recorded write carries that token.
 */
export async function writeOnce(
  target: WriteOnceTarget,
  claim: IdempotencyClaim,
  prepare: () => PreparedItem,
  now: () => number = Date.now,
): Promise<Written<PreparedItem>> {
  const claimed = await claimRecord(target, claim, prepare(), now);
  let { record } = claimed;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (record.payloadHash !== claim.payloadHash) throw new IdempotencyKeyReusedError();
    if ((await putIfAbsent(target.db, target.tableName, target.keyName, record.item)) === 'stored') {
      return { value: record.item, replayed: !claimed.owned };
    }
    record = await moveToFreshKey(target, record, prepare());
  }
  throw new Error(`no free key for the item of ${claim.recordKey} after ${MAX_ATTEMPTS} attempts`);
}

/** What a repository that creates items is constructed with, besides its client and table. */
export interface CreateOptions<Id> {
  /** Draws a new id (tests fix it). */
  readonly nextId?: () => Id;
  /** The `Idempotency-Key` records (shared/tables.ts `idempotency`): a create with a claim needs them. */
  readonly idempotencyTable?: string;
  /** The clock for `createdAt` (tests fix it). */
  readonly now?: () => Date;
}

/** Where creates write: the items' table and key, and the claims' table when a create may carry a claim. */
export interface CreateTarget extends Omit<WriteOnceTarget, 'recordsTable'> {
  readonly recordsTable: string | undefined;
}

/**
 * Stores a new item under a fresh key and returns it: the one create path of every repository. With a
 * claim (`Idempotency-Key`), through writeOnce, once per claim. Without, a key taken by another item
 * makes `prepare` draw a fresh one, up to `maxAttempts` times: nothing is ever overwritten.
 */
export async function createItem<T extends PreparedItem>(
  target: CreateTarget,
  prepare: () => T,
  claim: IdempotencyClaim | undefined,
  limits: { readonly maxAttempts: number; readonly keyDescription: string },
): Promise<Written<T>> {
  if (claim) {
    const { recordsTable } = target;
    if (!recordsTable) throw new Error(`a create with an Idempotency-Key needs the idempotency table (${target.tableName})`);
    // The recorded item is one `prepare` made (by this request or a duplicate): the same shape.
    return (await writeOnce({ ...target, recordsTable }, claim, prepare)) as Written<T>;
  }
  for (let attempt = 1; attempt <= limits.maxAttempts; attempt++) {
    const item = prepare();
    if ((await putIfAbsent(target.db, target.tableName, target.keyName, item)) === 'stored') return { value: item, replayed: false };
  }
  throw new Error(`no free ${limits.keyDescription} after ${limits.maxAttempts} attempts`);
}

/** Claims the key with this request's intended write, or returns the record that holds it. */
async function claimRecord(
  target: WriteOnceTarget,
  claim: IdempotencyClaim,
  item: PreparedItem,
  now: () => number,
): Promise<{ record: ClaimRecord; owned: boolean }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const nowSeconds = Math.floor(now() / 1000);
    const record: ClaimRecord = withWriteToken({
      id: claim.recordKey,
      payloadHash: claim.payloadHash,
      expiration: nowSeconds + claim.windowSeconds,
      item,
    });
    const outcome = await putIf(target.db, target.recordsTable, 'id', record, {
      // An expired record (TTL deletes them only eventually) no longer holds its key.
      expression: 'attribute_not_exists(#id) OR #expiration < :now',
      names: { '#id': 'id', '#expiration': 'expiration' },
      values: { ':now': nowSeconds },
    });
    if (outcome.written) return { record, owned: true };
    // Our own put, retried by the SDK after its answer was lost, finds the record it wrote: still ours.
    if (outcome.current) return { record: outcome.current as ClaimRecord, owned: isSameWrite(outcome.current, record) };
    // Gone between the two calls (expired and deleted): claim again.
  }
  throw new Error(`could not claim ${claim.recordKey} after ${MAX_ATTEMPTS} attempts`);
}

/** Points the record at a fresh item, unless another duplicate already moved it; either way, the record as it now stands. */
async function moveToFreshKey(target: WriteOnceTarget, record: ClaimRecord, item: PreparedItem): Promise<ClaimRecord> {
  const moved: ClaimRecord = { ...record, item };
  const outcome = await putIf(target.db, target.recordsTable, 'id', moved, {
    expression: '#item.#key = :taken',
    names: { '#item': 'item', '#key': target.keyName },
    values: { ':taken': record.item[target.keyName] },
  });
  if (outcome.written) return moved;
  if (!outcome.current) throw new Error(`the record ${record.id} disappeared while its item was being written`);
  return outcome.current as ClaimRecord;
}
