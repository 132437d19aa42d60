import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { issueApiKey, type IssuedApiKey } from '#auth/api-keys';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, MAX_KEYS_CREATED_PER_DAY } from '#contract/account-limits';
import type { ApiKeyRecord } from '#auth/key-record';
import type { ApiKeyRepository } from './api-key-repository';
import { isConditionFailure } from './conditional-put';
import { withTimeReserved } from '#runtime/request-scope';

/** Why a create was refused: the account's cap on active keys, its keys per day, or its deletion. */
export type CreateRefusal = 'limit_reached' | 'daily_limit_reached' | 'closed';

/** A slot without an active key is freed at the cap once older than this: longer than any request plus index lag. */
const SLOT_REPAIR_AFTER_MS = 60_000;

/** Kept from a create's own time to undo it when it is cut: the undo's writes must at least be sent. */
const UNDO_RESERVE_MS = 1_000;

/** A slot names its key, hash included, so closing the account can revoke a key whose record is not stored yet. */
const slotOf = (record: Pick<ApiKeyRecord, 'createdAt' | 'keyId' | 'keyHash'>): string =>
  `${record.createdAt}|${record.keyId}|${record.keyHash}`;
function keyOfSlot(slot: string): Pick<ApiKeyRecord, 'createdAt' | 'keyId' | 'keyHash'> {
  const [createdAt = '', keyId = '', keyHash = ''] = slot.split('|');
  return { createdAt, keyId, keyHash };
}
const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
const slotsOf = (item: Record<string, unknown> | undefined) => [...((item as AccountItem | undefined)?.activeKeys ?? [])].map(keyOfSlot);

interface AccountItem {
  readonly activeKeys?: Set<string>;
  readonly closedAt?: string;
  readonly createdDay?: string;
  readonly createdCount?: number;
}

/**
 * A user's keys under the caps without transactions (dynalite has none): the account's item holds a slot per active
 * key and today's creates. A create claims a slot and a count in one conditional update (once per slot), then writes
 * the key; a create that fails gives both back. A revoke writes the key, then frees the slot: a crash between leaves only
 * a stale slot, repaired when it blocks a create.
 * Closing revokes every key, then marks the account closed and reads its slots in one update, so a create that
 * claimed meanwhile is revoked too, by hash, ahead of its record if need be; a repeated close finishes a cut one.
 */
export class DynamoAccountKeys {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly keys: ApiKeyRepository,
    private readonly accountsTable: string,
    private readonly maxActiveKeys: number = MAX_ACTIVE_KEYS_PER_ACCOUNT,
    private readonly maxCreatedPerDay: number = MAX_KEYS_CREATED_PER_DAY,
  ) {}

  /** The new key, or why none was created: the active-key cap, the day's creates (UTC), or a deleted account. */
  async create(accountId: string, description: string, now: Date): Promise<IssuedApiKey | CreateRefusal> {
    const issued = issueApiKey({ accountId, description, now });
    const slot = slotOf(issued.record);
    // A cut create (its answer a 503, retried by the user) gives back its slot and count, and revokes its key in case
    // its put still lands: a stuttering database applies held writes late. The two commute, so they go out at once.
    const undoing = (putSent: boolean) => async (error: unknown) => {
      await Promise.allSettled([
        putSent ? this.keys.revokeOwned(issued.record, now, { upsert: true }) : undefined,
        this.undo(accountId, slot),
      ]);
      throw error;
    };
    const claimed = await withTimeReserved(UNDO_RESERVE_MS, () => this.claim(accountId, slot, now)).catch(undoing(false));
    if (claimed !== 'claimed') return claimed;
    const stored = await withTimeReserved(UNDO_RESERVE_MS, () => this.keys.create(issued.record)).catch(undoing(true));
    // Revoked before it was stored: the account was closed meanwhile.
    return stored.revokedAt === undefined ? issued : 'closed';
  }

  /** The revoked key, or undefined when the account lists no key with this id. */
  async revoke(accountId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const record = (await this.keys.listedForAccount(accountId, at)).find((candidate) => candidate.keyId === keyId);
    if (!record) return undefined;
    const revoked = await this.keys.revokeOwned(record, at);
    // Released whether or not this call revoked it: a second revoke also frees a slot the first left behind.
    if (revoked) await this.release(accountId, [slotOf(revoked)]);
    return revoked;
  }

  /** Revokes every key of the account and closes it for good; answers how many were revoked. */
  async close(accountId: string, at: Date): Promise<number> {
    const done = new Set<string>();
    const revokeEach = async (keys: readonly Pick<ApiKeyRecord, 'createdAt' | 'keyId' | 'keyHash'>[]): Promise<number> => {
      let revoked = 0;
      for (const key of keys) {
        if (done.has(key.keyHash)) continue;
        done.add(key.keyHash);
        const record = await this.keys.revokeOwned({ ...key, accountId }, at, { upsert: true });
        if (record?.revokedAt === at.toISOString()) revoked++;
      }
      return revoked;
    };
    const { Item } = await this.db.send(new GetCommand({ TableName: this.accountsTable, Key: { accountId }, ConsistentRead: true }));
    // Keys without a slot too: none are created so, but a slot repaired by mistake must not leave one working.
    const revoked = await revokeEach([...slotsOf(Item), ...(await this.keys.activeForAccount(accountId))]);
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.accountsTable,
        Key: { accountId },
        UpdateExpression: 'SET closedAt = if_not_exists(closedAt, :at)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return revoked + (await revokeEach(slotsOf(Attributes)));
  }

  /**
   * Takes a slot and counts a create unless at a cap or closed, per UTC day. Once per slot: an SDK retry of a claim that
   * was applied finds its slot taken, and the claim is then read back as done.
   */
  private async claim(accountId: string, slot: string, now: Date): Promise<'claimed' | CreateRefusal> {
    const today = utcDay(now);
    const unclaimed =
      'attribute_not_exists(closedAt) AND NOT contains(activeKeys, :slot) AND (attribute_not_exists(activeKeys) OR size(activeKeys) < :max)';
    const values = { ':slots': new Set([slot]), ':max': this.maxActiveKeys, ':slot': slot, ':today': today, ':one': 1 };
    for (let attempt = 0; attempt < 3; attempt++) {
      const sameDay = await this.update(accountId, {
        UpdateExpression: 'ADD activeKeys :slots, createdCount :one',
        ConditionExpression: `${unclaimed} AND createdDay = :today AND createdCount < :daily`,
        ExpressionAttributeValues: { ...values, ':daily': this.maxCreatedPerDay },
      });
      if (sameDay) return 'claimed';
      const newDay = await this.update(accountId, {
        UpdateExpression: 'ADD activeKeys :slots SET createdDay = :today, createdCount = :one',
        ConditionExpression: `${unclaimed} AND (attribute_not_exists(createdDay) OR createdDay <> :today)`,
        ExpressionAttributeValues: values,
      });
      if (newDay) return 'claimed';
      const refusal = await this.refusal(accountId, slot, now);
      if (refusal !== undefined) return refusal;
      // Neither held, yet nothing refuses: another create started the day, or a stale slot was just repaired.
    }
    return 'limit_reached';
  }

  /** Gives a cut create's slot back, and its count if still its UTC day: once, however often it is sent. */
  private async undo(accountId: string, slot: string): Promise<void> {
    const claimedOn = utcDay(new Date(keyOfSlot(slot).createdAt));
    const uncounted = await this.update(accountId, {
      UpdateExpression: 'DELETE activeKeys :slots ADD createdCount :minusOne',
      ConditionExpression: 'attribute_not_exists(closedAt) AND contains(activeKeys, :slot) AND createdDay = :claimedOn',
      ExpressionAttributeValues: { ':slots': new Set([slot]), ':slot': slot, ':minusOne': -1, ':claimedOn': claimedOn },
    });
    if (!uncounted) await this.release(accountId, [slot]);
  }

  /** A conditional update of the account's item: false when its condition did not hold. */
  private async update(
    accountId: string,
    input: Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>,
  ): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.accountsTable, Key: { accountId }, ...input }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async release(accountId: string, slots: readonly string[]): Promise<void> {
    // Never create an item just to delete from it, nor touch a closed account's (its slots are what closing revokes).
    await this.update(accountId, {
      UpdateExpression: 'DELETE activeKeys :slots',
      ConditionExpression: 'attribute_exists(accountId) AND attribute_not_exists(closedAt)',
      ExpressionAttributeValues: { ':slots': new Set(slots) },
    });
  }

  /**
   * Why a claim was refused, read consistently (or that it was ours). At a cap, stale slots are repaired first
   * (undefined: try again).
   */
  private async refusal(accountId: string, slot: string, now: Date): Promise<'claimed' | CreateRefusal | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.accountsTable, Key: { accountId }, ConsistentRead: true }));
    const account = Item as AccountItem | undefined;
    if (account?.closedAt !== undefined) return 'closed';
    const slots = account?.activeKeys ?? new Set<string>();
    if (slots.has(slot)) return 'claimed';
    const atCap = slots.size >= this.maxActiveKeys;
    const atDaily = account?.createdDay === utcDay(now) && (account.createdCount ?? 0) >= this.maxCreatedPerDay;
    if (!atCap && !atDaily) return undefined;
    if (await this.repairStale(accountId, slots, now)) return undefined;
    return atCap ? 'limit_reached' : 'daily_limit_reached';
  }

  /**
   * Slots without an active key, old enough that no create can still store theirs: a revoke that could not free its
   * slot (the slot is freed), or a create ended before its undo (its key never stored: the slot and count are given
   * back). Whether anything was repaired.
   */
  private async repairStale(accountId: string, slots: ReadonlySet<string>, now: Date): Promise<boolean> {
    const repairBefore = new Date(now.getTime() - SLOT_REPAIR_AFTER_MS).toISOString();
    const old = [...slots].filter((slot) => slot < repairBefore);
    if (old.length === 0) return false;
    const active = new Set((await this.keys.activeForAccount(accountId)).map(slotOf));
    const stale = old.filter((slot) => !active.has(slot));
    for (const slot of stale) {
      if ((await this.keys.findByHash(keyOfSlot(slot).keyHash)) === undefined) await this.undo(accountId, slot);
      else await this.release(accountId, [slot]);
    }
    return stale.length > 0;
  }
}
