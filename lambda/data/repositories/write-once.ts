import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { IdempotencyKeyReusedError } from '#contract/domain-errors';
import { isSameWrite, putIf, putIfAbsent, withWriteToken, type Tokened } from './conditional-put';

/** What an `Idempotency-Key` request claims: its record's key and the request it stands for. */
export interface IdempotencyClaim {
  /** Scoped to the operation and the account: the same key elsewhere is another request. */
  readonly recordKey: string;
  /** The validated input, hashed: the same key with another body is refused (422). */
  readonly payloadHash: string;
  readonly windowSeconds: number;
}

type PreparedItem = Tokened<Record<string, unknown>>;

/** The stored item, and whether an earlier request with the same `Idempotency-Key` stored it (nothing new was). */
export interface Written<T> {
  readonly value: T;
  readonly replayed: boolean;
}

/** What a repository that creates items is constructed with, besides its client and table. */
export interface CreateOptions<Id> {
  /** Draws a new id (tests fix it). */
  readonly nextId?: () => Id;
  /** The `Idempotency-Key` records (shared/tables.ts `idempotency`, TTL on `expiration`): a create with a claim needs them. */
  readonly idempotencyTable?: string;
  /** The clock for `createdAt` (tests fix it). */
  readonly now?: () => Date;
}

/** Where creates write: the items' table and key attribute, and the claims' table when a create may carry a claim. */
interface CreateTarget {
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly keyName: string;
  readonly recordsTable: string | undefined;
}
type ClaimTarget = CreateTarget & { readonly recordsTable: string };

/** What a claim record holds: the write it promises, so any request with the key can finish it. */
type ClaimRecord = Tokened<{ readonly id: string; readonly payloadHash: string; readonly expiration: number; readonly item: PreparedItem }>;

const isClaimRecord = (item: Record<string, unknown> | undefined): item is ClaimRecord =>
  typeof item?.payloadHash === 'string' && typeof item.item === 'object' && item.item !== null;

const MAX_ATTEMPTS = 5;

/** How many fresh keys a create tries, and what they are called in the error when none was free. */
interface CreateLimits {
  readonly maxAttempts: number;
  readonly keyDescription: string;
}

/**
 * The one create path of every repository, keyed on `id`: a taken key draws a fresh one, up to `maxAttempts` times
 * (nothing is overwritten); with a claim (`Idempotency-Key`), through writeOnce, once per claim.
 */
export function creator<Id>(
  db: DynamoDBDocumentClient,
  tableName: string,
  newId: () => Id,
  options: CreateOptions<Id>,
  limits: CreateLimits,
) {
  const { nextId = newId, idempotencyTable, now = () => new Date() } = options;
  const target = { db, tableName, keyName: 'id', recordsTable: idempotencyTable };
  return (prepare: (id: Id, createdAt: string) => PreparedItem, claim?: IdempotencyClaim) =>
    createItem(target, () => prepare(nextId(), now().toISOString()), claim, limits);
}

async function createItem(
  target: CreateTarget,
  prepare: () => PreparedItem,
  claim: IdempotencyClaim | undefined,
  limits: CreateLimits,
): Promise<Written<PreparedItem>> {
  if (claim) {
    const { recordsTable } = target;
    if (!recordsTable) throw new Error(`a create with an Idempotency-Key needs the idempotency table (${target.tableName})`);
    return writeOnce({ ...target, recordsTable }, claim, prepare);
  }
  for (let attempt = 1; attempt <= limits.maxAttempts; attempt++) {
    const item = prepare();
    if ((await putIfAbsent(target.db, target.tableName, target.keyName, item)) === 'stored') return { value: item, replayed: false };
  }
  throw new Error(`no free ${limits.keyDescription} after ${limits.maxAttempts} attempts`);
}

/**
 * Writes an `Idempotency-Key` request's item exactly once. Not Powertools' idempotency utility: it stores the item
 * twice when its answer's save is lost and answers concurrent duplicates 409. Here the record, written first, carries
 * the item, and every duplicate makes the same conditional put (PutItem and GetItem only, which both local engines
 * support); when that key is another item's, the first duplicate to notice moves the record to a fresh key.
 */
async function writeOnce(target: ClaimTarget, claim: IdempotencyClaim, prepare: () => PreparedItem): Promise<Written<PreparedItem>> {
  const claimed = await claimRecord(target, claim, prepare());
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

/** Claims the key with this request's intended write, or returns the record that holds it. */
async function claimRecord(
  target: ClaimTarget,
  claim: IdempotencyClaim,
  item: PreparedItem,
): Promise<{ record: ClaimRecord; owned: boolean }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const record = withWriteToken({
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
    if (isClaimRecord(outcome.current)) return { record: outcome.current, owned: isSameWrite(outcome.current, record) };
    // Gone between the two calls (expired and deleted): claim again.
  }
  throw new Error(`could not claim ${claim.recordKey} after ${MAX_ATTEMPTS} attempts`);
}

/** Points the record at a fresh item, unless another duplicate already moved it; either way, the record as it now stands. */
async function moveToFreshKey(target: ClaimTarget, record: ClaimRecord, item: PreparedItem): Promise<ClaimRecord> {
  const moved: ClaimRecord = { ...record, item };
  const outcome = await putIf(target.db, target.recordsTable, 'id', moved, {
    expression: '#item.#key = :taken',
    names: { '#item': 'item', '#key': target.keyName },
    values: { ':taken': record.item[target.keyName] },
  });
  if (outcome.written) return moved;
  if (!isClaimRecord(outcome.current)) throw new Error(`the record ${record.id} disappeared while its item was being written`);
  return outcome.current;
}
