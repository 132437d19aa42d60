/**
 * What the functions do behind a front door (`-c frontDoor=true`), through the local gateway with the
 * environment the stack gives them there (shared/origin-headers.ts): the authorizer refuses requests that
 * lack CloudFront's origin secret, before any key lookup, and Location names the host the client
 * called, which CloudFront forwards in x-forwarded-host.
 */
import { FORWARDED_HOST_HEADER, FRONT_DOOR_SECRET_ENV, FRONT_DOOR_SECRET_HEADER, PUBLIC_HOST_HEADER_ENV } from '#shared/origin-headers';
import { cameThroughFrontDoor } from '#auth/origin-secret';
import { expectError, useTestApi } from '../support/test-api';

const SECRET = 'origin-secret-for-this-test-0123456789abcdef';
const api = useTestApi();

beforeAll(() => {
  process.env[FRONT_DOOR_SECRET_ENV] = SECRET;
  process.env[PUBLIC_HOST_HEADER_ENV] = FORWARDED_HOST_HEADER;
});
afterAll(() => {
  Reflect.deleteProperty(process.env, FRONT_DOOR_SECRET_ENV);
  Reflect.deleteProperty(process.env, PUBLIC_HOST_HEADER_ENV);
});

const throughFrontDoor = { [FRONT_DOOR_SECRET_HEADER]: SECRET, [FORWARDED_HOST_HEADER]: 'api.example.com' };

it('a request with a valid key that bypassed the front door answers 401, telling the caller to use the base URL', async () => {
  const answer = await api.call('GET', '/v1/pets?limit=1');
  expectError(answer, 401, 'unauthorized');
  expect((answer.json as { message: string }).message).toMatch(/call it at the stage's base URL/);
});

it('a wrong origin secret is refused the same way, and nothing is stored', async () => {
  const before = await api.scan('pets');
  const answer = await api.call('POST', '/v1/pets', {
    headers: { [FRONT_DOOR_SECRET_HEADER]: 'guessed' },
    json: { name: 'Rex', categoryId: 1 },
  });
  expectError(answer, 401, 'unauthorized');
  expect(await api.scan('pets')).toEqual(before);
});

it("a bypassing request is refused before its key is looked up: a revoked key gets the front door's answer, not 'revoked'", async () => {
  const { key, keyId } = await api.issueKey('acct_bypass');
  await api.keys.revoke(keyId, new Date());
  const answer = await api.call('GET', '/v1/pets', { key });
  expect((answer.json as { message: string }).message).toMatch(/base URL/);
});

it('through the front door the key is checked as usual, and Location names the host the client called', async () => {
  const created = await api.call('POST', '/v1/pets', { headers: throughFrontDoor, json: { name: 'Rex', categoryId: 1 } });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toMatch(/^http:\/\/api\.example\.com\/v1\/pets\/\d+$/);
  const anonymous = await api.call('GET', '/v1/pets', { key: null, headers: throughFrontDoor });
  expectError(anonymous, 401, 'unauthorized');
  expect((anonymous.json as { message: string }).message).toMatch(/missing API key/);
});

describe('the origin-secret check', () => {
  it('lets everything through when the stage has no front door (no secret configured)', () => {
    Reflect.deleteProperty(process.env, FRONT_DOOR_SECRET_ENV);
    try {
      expect(cameThroughFrontDoor({})).toBe(true);
      expect(cameThroughFrontDoor(undefined, '')).toBe(true);
    } finally {
      process.env[FRONT_DOOR_SECRET_ENV] = SECRET;
    }
  });

  it('wants exactly the secret: not missing, not a prefix, not another case', () => {
    expect(cameThroughFrontDoor({ [FRONT_DOOR_SECRET_HEADER]: SECRET }, SECRET)).toBe(true);
    expect(cameThroughFrontDoor({}, SECRET)).toBe(false);
    expect(cameThroughFrontDoor(undefined, SECRET)).toBe(false);
    expect(cameThroughFrontDoor({ [FRONT_DOOR_SECRET_HEADER]: SECRET.slice(0, -1) }, SECRET)).toBe(false);
    expect(cameThroughFrontDoor({ [FRONT_DOOR_SECRET_HEADER]: SECRET.toUpperCase() }, SECRET)).toBe(false);
    expect(cameThroughFrontDoor({ [FRONT_DOOR_SECRET_HEADER]: '' }, SECRET)).toBe(false);
  });
});
