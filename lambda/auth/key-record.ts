import type { AccountKey } from '#contract/schemas/account-key-response';

/** What the API keys table stores: never the key itself, only its SHA-256 hash. */
export interface ApiKeyRecord {
  readonly keyHash: string;
  readonly keyId: string;
  readonly accountId: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly description?: string;
  /** Approximate: written at most once per LAST_USED_RESOLUTION_MS (ApiKeyRepository.recordUse). */
  readonly lastUsedAt?: string;
}

/** A stored key as the account API shows it: never its hash, and whether it still works. */
export function accountKeyAnswer(record: ApiKeyRecord): AccountKey {
  return {
    keyId: record.keyId,
    ...(record.description !== undefined ? { description: record.description } : {}),
    status: record.revokedAt ? 'revoked' : 'active',
    createdAt: record.createdAt,
    ...(record.lastUsedAt !== undefined ? { lastUsedAt: record.lastUsedAt } : {}),
    ...(record.revokedAt !== undefined ? { revokedAt: record.revokedAt } : {}),
  };
}
