import { generateApiKey, hashApiKey, isWellFormedApiKey, issueApiKey, parseBearer } from '../../lambda/shared/api-keys';

describe('API keys', () => {
  test('carry 256 random bits behind the pst_ prefix', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const key of keys) {
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    }
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
