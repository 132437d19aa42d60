import { assertHonoursContract } from '../contract/openapi-contract';
import { rawRequest } from '../support/raw-http';
import { useTestApi, expectError, expectRefusedUnchanged } from '../support/test-api';

const api = useTestApi();

let counter = 0;
const freshKey = (): string => `test-key-${Date.now()}-${counter++}`;
const createPet = (idempotencyKey: string | undefined, json: unknown, key?: string) =>
  api.call('POST', '/v1/pets', {
    json,
    ...(key ? { key } : {}),
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });
const petsNamed = async (name: string) => (await api.scan('pets')).filter((item) => item.name === name);

describe('Idempotency-Key on POST /v1/pets', () => {
  test('a sequential replay answers the original 201 and body, marked as replayed, and stores nothing new', async () => {
    const key = freshKey();
    const first = await createPet(key, { name: 'Once', categoryId: 1 });
    const again = await createPet(key, { name: 'Once', categoryId: 1 });
    const third = await createPet(key, { categoryId: 1, name: 'Once' }); // same body, other key order

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const replay of [again, third]) {
      expect(replay.status).toBe(201);
      expect(replay.json).toEqual(first.json);
      expect(replay.headers.get('location')).toBe(first.headers.get('location'));
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await petsNamed('Once')).toHaveLength(1);
  });

  test('a replay answers a Location on the host the replay was sent to', async () => {
    const key = freshKey();
    const first = await createPet(key, { name: 'Hosted', categoryId: 1 });
    const { port } = new URL(api.origin);
    const replay = await rawRequest(
      api.origin,
      [
        'POST /v1/pets HTTP/1.1',
        `host: localhost:${port}`,
        `authorization: Bearer ${api.key}`,
        'content-type: application/json',
        `idempotency-key: ${key}`,
      ],
      '{"name":"Hosted","categoryId":1}',
    );
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers.get('location')).toBe(`http://127.0.0.1:${port}/v1/pets/${(first.json as { id: number }).id}`);
    expect(replay.headers.location).toBe(`http://localhost:${port}/v1/pets/${(first.json as { id: number }).id}`);
  });

  test('the same key with a different body answers 422 idempotency_key_reused and stores nothing', async () => {
    const key = freshKey();
    expect((await createPet(key, { name: 'First body', categoryId: 1 })).status).toBe(201);
    await expectRefusedUnchanged(api, 'pets', () => createPet(key, { name: 'Second body', categoryId: 1 }), {
      status: 422,
      code: 'idempotency_key_reused',
    });
  });

  test('keys are scoped to the calling account: another account with the same key creates its own pet', async () => {
    const key = freshKey();
    const other = await api.issueKey('acct_other');
    const mine = await createPet(key, { name: 'Scoped', categoryId: 1 });
    const theirs = await createPet(key, { name: 'Scoped', categoryId: 1 }, other.key);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect((theirs.json as { id: number }).id).not.toBe((mine.json as { id: number }).id);
    expect(await petsNamed('Scoped')).toHaveLength(2);
  });

  test('without the header, identical requests create distinct pets (the spec behaviour)', async () => {
    await createPet(undefined, { name: 'Twice', categoryId: 1 });
    await createPet(undefined, { name: 'Twice', categoryId: 1 });
    expect(await petsNamed('Twice')).toHaveLength(2);
  });

  test('a request refused as invalid does not use up its key', async () => {
    const key = freshKey();
    expectError(await createPet(key, { name: '', categoryId: 1 }), 400, 'invalid_request');
    expect((await createPet(key, { name: 'After invalid', categoryId: 1 })).status).toBe(201);
  });

  test.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'my key'],
    ['non-ASCII', 'clé'],
    ['comma-separated', 'a,b'],
  ])('an %s Idempotency-Key answers 400 naming the header', async (_label, value) => {
    await expectRefusedUnchanged(api, 'pets', () => createPet(value, { name: 'Bad key', categoryId: 1 }), {
      status: 400,
      code: 'invalid_request',
      message: /Idempotency-Key/,
    });
  });
});

test('Idempotency-Key sent twice answers 400 instead of becoming the joined key "a,b", and stores nothing', async () => {
  const body = '{"name":"Twice keyed","categoryId":1}';
  const send = async () => {
    const answer = await rawRequest(
      api.origin,
      [
        'POST /v1/pets HTTP/1.1',
        `host: ${new URL(api.origin).host}`,
        `authorization: Bearer ${api.key}`,
        'content-type: application/json',
        `idempotency-key: ${freshKey()}`,
        `idempotency-key: ${freshKey()}`,
      ],
      body,
    );
    const headers = new Headers(answer.headers);
    const result = { status: answer.status, headers, text: answer.body, json: JSON.parse(answer.body) as unknown };
    assertHonoursContract({ method: 'POST', url: `${api.petsBaseUrl}/pets` }, result);
    return result;
  };
  await expectRefusedUnchanged(api, 'pets', send, { status: 400, code: 'invalid_request', message: /Idempotency-Key' must be one value/ });
  await expectRefusedUnchanged(api, 'idempotency', send, { status: 400, code: 'invalid_request' });
});

describe('Idempotency-Key on POST /messages', () => {
  test('the same key on another operation is a different request', async () => {
    const key = freshKey();
    expect((await createPet(key, { name: 'Cross', categoryId: 1 })).status).toBe(201);
    expect((await api.call('POST', '/messages', { json: { message: 'cross' }, headers: { 'idempotency-key': key } })).status).toBe(202);
  });
});
