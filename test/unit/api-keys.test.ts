import { randomBytes } from 'node:crypto';
import { API_KEY_LENGTH, generateApiKey, hashApiKey, isWellFormedApiKey, issueApiKey, parseBearer } from '#auth/api-keys';

/** A string of a key's shape: the prefix and base64url characters of the right length. */
const shapedLikeAKey = (): string =>
  `pst_${randomBytes(64)
    .toString('base64url')
    .slice(0, API_KEY_LENGTH - 4)}`;

describe('API keys', () => {
  test('carry 256 random bits behind the pst_ prefix, then a checksum', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const key of keys) {
      expect(key).toMatch(/^pst_[A-Za-z0-9_-]{51}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(Buffer.from(key.slice(4, 47), 'base64url')).toHaveLength(32);
    }
  });

  test('a random string of the right shape fails the checksum: it is refused without a lookup', () => {
    const random = Array.from({ length: 10_000 }, shapedLikeAKey);
    expect(random.every((key) => key.length === API_KEY_LENGTH)).toBe(true);
    // 48 checksum bits: a random string passes about once in 2^48 tries.
    expect(random.filter(isWellFormedApiKey)).toEqual([]);
  });

  test('a key mistyped in any one character fails the checksum', () => {
    const key = generateApiKey();
    for (let position = 4; position < key.length; position++) {
      const replacement = key[position] === 'A' ? 'B' : 'A';
      expect([position, isWellFormedApiKey(`${key.slice(0, position)}${replacement}${key.slice(position + 1)}`)]).toEqual([
        position,
        false,
      ]);
    }
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}A`)).toBe(false);
  });

  test('a key of the format before checksums (pst_ and 43 characters) is no longer accepted', () => {
    expect(isWellFormedApiKey(`pst_${randomBytes(32).toString('base64url')}`)).toBe(false);
  });

  test('are stored as their SHA-256 hash only', () => {
    const issued = issueApiKey({ accountId: 'acct_1', now: new Date('2026-01-02T03:04:05.000Z') });
    expect(issued.record).toEqual({
      keyHash: hashApiKey(issued.key),
      keyId: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      accountId: 'acct_1',
      createdAt: '2026-01-02T03:04:05.000Z',
    });
    expect(JSON.stringify(issued.record)).not.toContain(issued.key);
    expect(hashApiKey('pst_x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the Authorization header', () => {
  test.each([
    ['Bearer abc', { kind: 'key', key: 'abc' }],
    ['bearer abc', { kind: 'key', key: 'abc' }],
    ['BEARER   abc  ', { kind: 'key', key: 'abc' }],
    [undefined, { kind: 'missing' }],
    ['', { kind: 'missing' }],
    ['   ', { kind: 'missing' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer ', { kind: 'malformed' }],
    ['Basic abc', { kind: 'malformed' }],
    ['abc', { kind: 'malformed' }],
    ['Bearer a b', { kind: 'malformed' }],
    ['Bearer a,Bearer b', { kind: 'malformed' }],
    ['Bearerabc', { kind: 'malformed' }],
  ])('%p parses as %p', (header, expected) => {
    expect(parseBearer(header)).toEqual(expected);
  });
});
