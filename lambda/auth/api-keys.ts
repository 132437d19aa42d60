import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys: 256 random bits behind a prefix secret scanners spot, then a public checksum that keeps typos and noise
 * (not attackers) away from the table. Only the SHA-256 hash is stored: a fast hash suffices for a long random input.
 */
export const API_KEY_PREFIX = 'pst_';
const API_KEY_BYTES = 32;
/** base64url of 32 bytes, then of the checksum's 6 bytes. */
const RANDOM_LENGTH = 43;
const CHECKSUM_BYTES = 6;
const CHECKSUM_LENGTH = 8;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** Describes the form for error messages and docs. */
export const API_KEY_FORM = `${API_KEY_PREFIX} followed by ${RANDOM_LENGTH + CHECKSUM_LENGTH} base64url characters`;

const checksumOf = (random: string): string =>
  createHash('sha256').update(`petstore-api-key:${random}`, 'utf8').digest().subarray(0, CHECKSUM_BYTES).toString('base64url');

export function generateApiKey(): string {
  const random = randomBytes(API_KEY_BYTES).toString('base64url');
  return `${API_KEY_PREFIX}${random}${checksumOf(random)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Shaped like our keys and its checksum matches: worth a lookup. Anything else was never issued. */
export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const random = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_LENGTH);
  return key.slice(API_KEY_PREFIX.length + RANDOM_LENGTH) === checksumOf(random);
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
      keyId: `key_${randomBytes(8).toString('hex')}`,
      accountId: options.accountId,
      createdAt: (options.now ?? new Date()).toISOString(),
      ...(options.description ? { description: options.description } : {}),
    },
  };
}
