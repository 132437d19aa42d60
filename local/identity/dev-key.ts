import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_FORM, hashApiKey, isWellFormedApiKey, issueApiKey } from '#auth/api-keys';
import type { ApiKeyRepository } from '#data/repositories/api-key-repository';

export const DEV_ACCOUNT_ID = 'acct_local_dev';
export const DEV_KEY_FILE = 'dev-api-key';

export interface DevKey {
  readonly key: string;
  readonly source: 'PETSTORE_DEV_API_KEY' | 'data directory' | 'new';
}

/** PETSTORE_DEV_API_KEY, else the one kept in the data directory (scripts keep working across restarts), else a new one. */
export async function ensureDevKey(keys: ApiKeyRepository, dataDir: string, fromEnv: string | undefined): Promise<DevKey> {
  const file = join(dataDir, DEV_KEY_FILE);
  let key: string;
  let source: DevKey['source'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isWellFormedApiKey(fromEnv)) {
      throw new Error(`PETSTORE_DEV_API_KEY must be ${API_KEY_FORM}, with a valid checksum (e.g. from \`npm run keys -- create\`)`);
    }
    [key, source] = [fromEnv, 'PETSTORE_DEV_API_KEY'];
  } else if (existsSync(file) && isWellFormedApiKey(readFileSync(file, 'utf8').trim())) {
    [key, source] = [readFileSync(file, 'utf8').trim(), 'data directory'];
  } else {
    [key, source] = [issueApiKey({ accountId: DEV_ACCOUNT_ID }).key, 'new'];
  }
  const existing = await keys.findByHash(hashApiKey(key));
  if (!existing) {
    await keys.create(issueApiKey({ accountId: DEV_ACCOUNT_ID, description: 'local development key', key }).record);
  } else if (existing.revokedAt) {
    throw new Error(`the dev API key ${existing.keyId} was revoked; unset PETSTORE_DEV_API_KEY or delete ${file} to get a new one`);
  }
  if (source !== 'PETSTORE_DEV_API_KEY') writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, source };
}
