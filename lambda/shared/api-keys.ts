import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys: 256 random bits behind a recognisable prefix (so leaked keys are easy to spot by secret
 * scanners), stored only as their SHA-256 hash. A fast hash is right here: the input is random and
 * long, so there is nothing to brute-force, and the authorizer must stay quick.
 */
export const API_KEY_PREFIX = 'pst_';
const API_KEY_BYTES = 32;
const API_KEY_PATTERN = /^pst_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_BYTES).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

export function generateKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

export type BearerParseResult =
  { readonly kind: 'missing' } | { readonly kind: 'malformed' } | { readonly kind: 'key'; readonly key: string };

/** `Authorization: Bearer <key>`; the scheme name is case-insensitive (RFC 7235 §2.1). */
export function parseBearer(header: string | undefined): BearerParseResult {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = /^bearer +([^\s,]+) *$/i.exec(header);
  return match?.[1] ? { kind: 'key', key: match[1] } : { kind: 'malformed' };
}

export interface IssuedApiKey {
  /** Shown once to the operator; never stored. */
  readonly key: string;
  readonly record: {
    readonly keyHash: string;
    readonly keyId: string;
    readonly accountId: string;
    readonly createdAt: string;
    readonly description?: string;
  };
}

export function generateAccountId(): string {
  return `acct_${randomBytes(8).toString('hex')}`;
}

/** A new key and the record to store for it (hash only). `key` may be given to register a known key. */
export function issueApiKey(options: { accountId: string; description?: string; key?: string; now?: Date }): IssuedApiKey {
  const key = options.key ?? generateApiKey();
  return {
    key,
    record: {
      keyHash: hashApiKey(key),
      keyId: generateKeyId(),
      accountId: options.accountId,
      createdAt: (options.now ?? new Date()).toISOString(),
      ...(options.description ? { description: options.description } : {}),
    },
  };
}
