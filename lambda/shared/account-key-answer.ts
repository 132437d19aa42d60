import type { ApiKeyRecord } from './repositories/api-key-repository';
import type { AccountKey } from './schemas/account-key-response';

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
