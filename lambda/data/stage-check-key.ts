/**
 * The stage check's own API key: the key in a secret of the stack, its hash in the API-keys table like every key.
 * A fresh stage's secret holds what Secrets Manager generated, not a key; the check then mints one itself, so that
 * no deploy waits on an operator. `npm run keys -- rotate-stage-check` replaces it, revoking the one it replaces.
 */
import { GetSecretValueCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { hashApiKey, isWellFormedApiKey, issueApiKey } from '#auth/api-keys';
import type { ApiKeyRepository } from './repositories/api-key-repository';

export const STAGE_CHECK_ACCOUNT_ID = 'acct_stage_check';

/** Where the key is kept: the stack's secret in AWS. */
export interface KeySecret {
  read(): Promise<string | undefined>;
  write(key: string): Promise<void>;
}

export const secretsManagerKeySecret = (client: SecretsManagerClient, secretId: string): KeySecret => ({
  read: async () => (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString,
  write: async (key) => {
    await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: key }));
  },
});

/** A new key of the stage check's account: registered first, so that the secret never holds a key the table lacks. */
async function mint(secret: KeySecret, keys: ApiKeyRepository, now: Date): Promise<{ key: string; keyId: string }> {
  const issued = issueApiKey({ accountId: STAGE_CHECK_ACCOUNT_ID, description: 'the stage check', now });
  await keys.create(issued.record);
  await secret.write(issued.key);
  return { key: issued.key, keyId: issued.record.keyId };
}

/** The key the secret holds, else a new one. */
export async function stageCheckKey(secret: KeySecret, keys: ApiKeyRepository, now = new Date()): Promise<string> {
  const held = await secret.read();
  return held !== undefined && isWellFormedApiKey(held) ? held : (await mint(secret, keys, now)).key;
}

/** Replaces the key (leaked, or simply due): the new one is live before the old one is revoked. */
export async function rotateStageCheckKey(
  secret: KeySecret,
  keys: ApiKeyRepository,
  now = new Date(),
): Promise<{ keyId: string; revokedKeyId?: string }> {
  const held = await secret.read();
  const { keyId } = await mint(secret, keys, now);
  const previous = held !== undefined && isWellFormedApiKey(held) ? await keys.findByHash(hashApiKey(held)) : undefined;
  if (previous) await keys.revoke(previous.keyId, now);
  return { keyId, ...(previous ? { revokedKeyId: previous.keyId } : {}) };
}
