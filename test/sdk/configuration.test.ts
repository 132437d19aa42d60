/**
 * What the clients check before sending anything, so that a mix-up fails where it is made: base URLs (the pets
 * API's ends with /v1, the others' do not), credentials, idempotency keys and options; and how the next page's
 * cursor is read from a `Link` header.
 */
import { AccountClient, PetStoreClient, type PetStoreClientOptions } from '../../clients/typescript/src/index.ts';
import { idempotencyKeyFor } from '../../clients/typescript/src/idempotency-key.ts';
import { nextCursor } from '../../clients/typescript/src/link-header.ts';

const valid: PetStoreClientOptions = {
  petsBaseUrl: 'https://api.example.com/v1',
  messagesBaseUrl: 'https://messages.example.com',
  apiKey: 'pst_k',
};

describe('base URLs', () => {
  test.each([
    ['https://api.example.com/v1', 'https://messages.example.com'],
    ['https://api.example.com/v1/', 'https://messages.example.com/'],
    ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000'],
    ['https://example.com/petstore/v1', 'https://example.com/petstore'],
  ])('%s and %s are accepted', (petsBaseUrl, messagesBaseUrl) => {
    expect(() => new PetStoreClient({ ...valid, petsBaseUrl, messagesBaseUrl })).not.toThrow();
  });

  test.each([
    [{ petsBaseUrl: 'https://api.example.com' }, /petsBaseUrl must end with \/v1/],
    [{ petsBaseUrl: 'https://api.example.com/v2' }, /petsBaseUrl must end with \/v1/],
    [{ petsBaseUrl: 'api.example.com/v1' }, /petsBaseUrl must be an absolute http\(s\) URL/],
    [{ petsBaseUrl: 'ftp://api.example.com/v1' }, /petsBaseUrl must be an http\(s\) URL/],
    [{ petsBaseUrl: 'https://api.example.com/v1?stage=prod' }, /no query/],
    [{ messagesBaseUrl: 'https://api.example.com/v1' }, /messagesBaseUrl is the messages API's own base URL, without \/v1/],
    [{ apiKey: '' }, /apiKey must be a non-empty token/],
    [{ apiKey: 'pst_k\r\nX-Injected: 1' }, /apiKey must be a non-empty token/],
    [{ timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [{ retry: { maxAttempts: 0 } }, /retry.maxAttempts must be an integer from 1/],
    [{ retry: { maxDelayMs: -1 } }, /retry.maxDelayMs must be a number of milliseconds from 0/],
  ])('%j is refused with a TypeError that names it', (change, message) => {
    expect(() => new PetStoreClient({ ...valid, ...change })).toThrow(TypeError);
    expect(() => new PetStoreClient({ ...valid, ...change })).toThrow(message);
  });

  test("the account API's base URL is the API's address, without /account", () => {
    expect(() => new AccountClient({ accountBaseUrl: 'https://account.example.com', accessToken: 'a.b.c' })).not.toThrow();
    expect(() => new AccountClient({ accountBaseUrl: 'https://account.example.com/account', accessToken: 'a.b.c' })).toThrow(
      /without \/account/,
    );
  });

  test('an API key in the access token slot is refused, whether given as a string or by the token function', async () => {
    expect(() => new AccountClient({ accountBaseUrl: 'https://account.example.com', accessToken: 'pst_k' })).toThrow(/API key/);
    const account = new AccountClient({ accountBaseUrl: 'https://account.example.com', accessToken: () => 'pst_k' });
    await expect(account.listKeys()).rejects.toThrow(/API key/);
  });
});

describe('idempotency keys', () => {
  test('one random UUID per call unless given', () => {
    const keys = new Set(Array.from({ length: 100 }, () => idempotencyKeyFor(undefined)));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('a given key is used as it is when the service would accept it, refused before sending otherwise', () => {
    expect(idempotencyKeyFor('order-42')).toBe('order-42');
    expect(idempotencyKeyFor('x'.repeat(255))).toBe('x'.repeat(255));
    for (const refused of ['', 'a,b', 'with space', 'é', 'x'.repeat(256)]) expect(() => idempotencyKeyFor(refused)).toThrow(TypeError);
  });
});

describe("the next page's cursor, from Link", () => {
  const request = 'https://api.example.com/v1/pets?limit=2';

  test('absent on the last page', () => {
    expect(nextCursor(null, request)).toBeUndefined();
    expect(nextCursor('<https://api.example.com/v1/pets?cursor=abc>; rel="prev"', request)).toBeUndefined();
  });

  test('the cursor of the rel="next" link, absolute or relative, among others, rel quoted or not', () => {
    expect(nextCursor('<https://api.example.com/v1/pets?limit=2&status=sold&cursor=eyJ2IjoxfQ>; rel="next"', request)).toBe('eyJ2IjoxfQ');
    expect(nextCursor('</v1/pets?cursor=a%2Bb>; rel=next', request)).toBe('a+b');
    expect(nextCursor('<https://x.example/?cursor=first>; rel="first", <https://x.example/?cursor=n2>; rel="prefetch next"', request)).toBe(
      'n2',
    );
  });

  test('a next link without a cursor breaks the contract: an error, not a listing that ends early', () => {
    expect(() => nextCursor('<https://api.example.com/v1/pets?limit=2>; rel="next"', request)).toThrow(/no cursor/);
  });
});
