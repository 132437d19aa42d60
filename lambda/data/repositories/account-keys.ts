import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { issueApiKey, type IssuedApiKey } from '#auth/api-keys';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import type { ApiKeyRecord } from '#auth/key-record';
import type { ApiKeyRepository } from './api-key-repository';

/** A signed-in user's keys (the account API): creating under the cap, revoking, closing the account. Listing is ApiKeyRepository.listByAccount. */
export interface AccountKeys {
  /**
   * The new key; `limit_reached` when the account already holds MAX_ACTIVE_KEYS_PER_ACCOUNT active keys;
   * `closed` when the account was deleted (its access tokens stay valid until they expire).
   */
  create(accountId: string, description: string, now: Date): Promise<IssuedApiKey | 'limit_reached' | 'closed'>;
  /** The revoked key, or undefined when the account has no key with this id (another account's included). */
  revoke(accountId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
  /** Revokes every active key of the account and marks it closed, so no key can be created for it again; returns how many were revoked. */
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
 * a slot); such slots are repaired when they would block a create. A deleted account keeps its item,
 * marked `closedAt`, so its still-valid access tokens cannot create keys.
 */
export class DynamoAccountKeys implements AccountKeys {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly keys: ApiKeyRepository,
    private readonly accountsTable: string,
    private readonly maxActiveKeys: number = MAX_ACTIVE_KEYS_PER_ACCOUNT,
  ) {}

  async create(accountId: string, description: string, now: Date): Promise<IssuedApiKey | 'limit_reached' | 'closed'> {
    const issued = issueApiKey({ accountId, description, now });
    const slot = slotOf(issued.record);
    if (!(await this.claim(accountId, slot))) {
      const refusal = await this.repair(accountId, now);
      if (refusal !== 'repaired') return refusal;
      if (!(await this.claim(accountId, slot))) return 'limit_reached';
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
    // Closed first: a create racing with this deletion can then no longer add a key after the revocations.
    await this.db.send(
      new UpdateCommand({
        TableName: this.accountsTable,
        Key: { accountId },
        UpdateExpression: 'SET closedAt = if_not_exists(closedAt, :at) REMOVE activeKeys',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    );
    const active = (await this.keys.listByAccount(accountId)).filter((record) => !record.revokedAt);
    for (const record of active) await this.keys.revokeOwned(record, at);
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
          ConditionExpression:
            'attribute_not_exists(closedAt) AND (attribute_not_exists(activeKeys) OR size(activeKeys) < :max OR contains(activeKeys, :slot))',
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
          // Never create an item just to delete from it, nor touch a closed account's.
          ConditionExpression: 'attribute_exists(accountId) AND attribute_not_exists(closedAt)',
          ExpressionAttributeValues: { ':slots': new Set(slots) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** After a refused claim: why, or `repaired` when slots older than SLOT_REPAIR_AFTER_MS whose key is missing or revoked were freed. */
  private async repair(accountId: string, now: Date): Promise<'repaired' | 'limit_reached' | 'closed'> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.accountsTable, Key: { accountId }, ConsistentRead: true }));
    const account = Item as { activeKeys?: Set<string>; closedAt?: string } | undefined;
    if (account?.closedAt !== undefined) return 'closed';
    const slots = account?.activeKeys ?? new Set<string>();
    const active = new Set((await this.keys.listByAccount(accountId)).filter((record) => !record.revokedAt).map(slotOf));
    const repairBefore = new Date(now.getTime() - SLOT_REPAIR_AFTER_MS).toISOString();
    const stale = [...slots].filter((slot) => !active.has(slot) && slot < repairBefore);
    if (stale.length === 0) return 'limit_reached';
    await this.release(accountId, stale);
    return 'repaired';
  }
}
