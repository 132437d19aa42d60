import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { issueApiKey, type IssuedApiKey } from '../api-keys';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../account-settings';
import type { ApiKeyRecord, ApiKeyRepository } from './api-key-repository';

/** A signed-in user's keys (the account API): listing, creating under the cap, revoking, closing the account. */
export interface AccountKeys {
  list(accountId: string): Promise<ApiKeyRecord[]>;
  /** The new key, or `limit_reached` when the account already holds MAX_ACTIVE_KEYS_PER_ACCOUNT active keys. */
  create(accountId: string, description: string, now: Date): Promise<IssuedApiKey | 'limit_reached'>;
  /** The revoked key, or undefined when the account has no key with this id (another account's included). */
  revoke(accountId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
  /** Revokes every active key of the account and forgets its slots; returns how many were revoked. */
  close(accountId: string, at: Date): Promise<number>;
}

/**
 * A slot a crashed request claimed but never filled (or a revocation that never released its slot) is
 * freed when the account is at its cap, once older than this: longer than any request can run (the
 * function timeout is 10 s) plus the account index's replication lag.
 */
export const SLOT_REPAIR_AFTER_MS = 60_000;

const slotOf = (record: Pick<ApiKeyRecord, 'createdAt' | 'keyId'>): string => `${record.createdAt}|${record.keyId}`;
const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * The cap without transactions (dynalite, one of the two local engines, has none): each account has
 * one item in the accounts table whose string set `activeKeys` holds a slot (`createdAt|keyId`) per
 * active key. Creating a key first claims a slot with a conditional ADD (`size < cap`), so concurrent
 * creates can never pass the cap, then writes the key; revoking writes the key, then releases the slot.
 * Set ADD and DELETE are idempotent, so an SDK retry after a lost answer counts nothing twice. A crash
 * between the two writes can only leave a slot taken without an active key (never an active key without
 * a slot); such slots are repaired when they would block a create.
 */
export class DynamoAccountKeys implements AccountKeys {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly keys: ApiKeyRepository,
    private readonly accountsTable: string,
    private readonly maxActiveKeys: number = MAX_ACTIVE_KEYS_PER_ACCOUNT,
  ) {}

  list(accountId: string): Promise<ApiKeyRecord[]> {
    return this.keys.listByAccount(accountId);
  }

  async create(accountId: string, description: string, now: Date): Promise<IssuedApiKey | 'limit_reached'> {
    const issued = issueApiKey({ accountId, description, now });
    const slot = slotOf(issued.record);
    if (!(await this.claim(accountId, slot)) && !((await this.repair(accountId, now)) && (await this.claim(accountId, slot)))) {
      return 'limit_reached';
    }
    try {
      await this.keys.create(issued.record);
    } catch (error) {
      // The key hash is 256 random bits: a failed condition can only be our own write, retried by the SDK.
      if (isConditionFailure(error)) return issued;
      await this.release(accountId, [slot]).catch(() => undefined);
      throw error;
    }
    return issued;
  }

  async revoke(accountId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const record = (await this.keys.listByAccount(accountId)).find((candidate) => candidate.keyId === keyId);
    if (!record) return undefined;
    const revoked = await this.keys.revokeOwned(record, at);
    // Released whether or not this call revoked it: a second revoke also frees a slot the first left behind.
    if (revoked) await this.release(accountId, [slotOf(revoked)]);
    return revoked;
  }

  async close(accountId: string, at: Date): Promise<number> {
    const active = (await this.keys.listByAccount(accountId)).filter((record) => !record.revokedAt);
    for (const record of active) await this.keys.revokeOwned(record, at);
    await this.db.send(new DeleteCommand({ TableName: this.accountsTable, Key: { accountId } }));
    return active.length;
  }

  /** Takes a slot unless the account is at its cap; taking the same slot again (a retry) succeeds. */
  private async claim(accountId: string, slot: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.accountsTable,
          Key: { accountId },
          UpdateExpression: 'ADD activeKeys :slots',
          ConditionExpression: 'attribute_not_exists(activeKeys) OR size(activeKeys) < :max OR contains(activeKeys, :slot)',
          ExpressionAttributeValues: { ':slots': new Set([slot]), ':max': this.maxActiveKeys, ':slot': slot },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async release(accountId: string, slots: readonly string[]): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.accountsTable,
          Key: { accountId },
          UpdateExpression: 'DELETE activeKeys :slots',
          // Never recreate the item of a closed account.
          ConditionExpression: 'attribute_exists(accountId)',
          ExpressionAttributeValues: { ':slots': new Set(slots) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Frees slots older than SLOT_REPAIR_AFTER_MS whose key is missing or revoked; true when any was freed. */
  private async repair(accountId: string, now: Date): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.accountsTable, Key: { accountId }, ConsistentRead: true }));
    const slots = (Item as { activeKeys?: Set<string> } | undefined)?.activeKeys ?? new Set<string>();
    const active = new Set((await this.keys.listByAccount(accountId)).filter((record) => !record.revokedAt).map(slotOf));
    const repairBefore = new Date(now.getTime() - SLOT_REPAIR_AFTER_MS).toISOString();
    const stale = [...slots].filter((slot) => !active.has(slot) && slot < repairBefore);
    if (stale.length === 0) return false;
    await this.release(accountId, stale);
    return true;
  }
}
