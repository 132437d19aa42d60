/**
 * Hundreds of concurrent and interleaved writes through the local API (slow tier: seconds of work each): ids stay
 * distinct, and an Idempotency-Key stores exactly once however many requests race with it.
 */
import { useTestApi } from '../support/test-api';

const api = useTestApi();

let counter = 0;
const freshKey = (): string => `concurrent-key-${counter++}`;
const post = (json: unknown) => api.call('POST', '/v1/pets', { json });
const createPet = (idempotencyKey: string, json: unknown) =>
  api.call('POST', '/v1/pets', { json, headers: { 'idempotency-key': idempotencyKey } });
const petsNamed = async (name: string) => (await api.scan('pets')).filter((item) => item.name === name);

describe('POST /v1/pets', () => {
  test('200 concurrent creates give 200 distinct ids, every one retrievable', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => post({ name: `pet ${index}`, categoryId: 3 })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(201));
    const ids = answers.map((answer) => (answer.json as { id: number }).id);
    expect(new Set(ids).size).toBe(200);

    const fetched = await Promise.all(ids.map((id) => api.call('GET', `/v1/pets/${id}`)));
    expect(fetched.map((answer) => answer.status)).toEqual(Array(200).fill(200));
    expect(fetched.map((answer) => (answer.json as { name: string }).name).sort()).toEqual(
      answers.map((answer) => (answer.json as { name: string }).name).sort(),
    );
  });
});

describe('Idempotency-Key on POST /v1/pets', () => {
  test('50 concurrent duplicates store exactly one pet and all answer it: one original, 49 replays', async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 50 }, () => createPet(key, { name: 'Concurrent', categoryId: 9 })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    const [first] = answers;
    for (const answer of answers) {
      expect(answer.json).toEqual(first?.json);
      expect(answer.headers.get('location')).toBe(first?.headers.get('location'));
    }
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await petsNamed('Concurrent')).toEqual([expect.objectContaining(first?.json as object)]);

    // Once settled, a retry gets the same stored answer.
    const retry = await createPet(key, { name: 'Concurrent', categoryId: 9 });
    expect([retry.status, retry.json, retry.headers.get('idempotent-replayed')]).toEqual([201, first?.json, 'true']);
  });
});

describe('POST /messages', () => {
  test('100 concurrent submissions are stored as 100 distinct messages', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => api.call('POST', '/messages', { json: { message: `concurrent ${index}` } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(202));
    const ids = answers.map((answer) => (answer.json as { id: string }).id);
    expect(new Set(ids).size).toBe(100);
    const stored = await api.scan('messages');
    const storedTexts = stored.filter((item) => ids.includes(item.id as string)).map((item) => item.message);
    expect(storedTexts.sort()).toEqual(Array.from({ length: 100 }, (_, index) => `concurrent ${index}`).sort());
  });
});

describe('Idempotency-Key on POST /messages', () => {
  test('sequential and 50-way concurrent replays store one message and answer its id', async () => {
    const key = freshKey();
    const send = () => api.call('POST', '/messages', { json: { message: 'exactly once' }, headers: { 'idempotency-key': key } });
    const first = await send();
    expect(first.status).toBe(202);
    const replays = await Promise.all(Array.from({ length: 50 }, send));
    for (const replay of replays) {
      expect(replay.status).toBe(202);
      expect(replay.json).toEqual(first.json);
    }
    expect((await api.scan('messages')).filter((item) => item.message === 'exactly once')).toHaveLength(1);
  });

  test('creates and messages with keys, interleaved, are each saved under their own operation: every replay gets its original answer', async () => {
    const pairs = Array.from({ length: 20 }, (_, index) => ({ pet: freshKey(), message: freshKey(), index }));
    const sendMessage = (key: string, index: number) =>
      api.call('POST', '/messages', { json: { message: `interleaved ${index}` }, headers: { 'idempotency-key': key } });
    const firsts = await Promise.all(
      pairs.map(async ({ pet, message, index }) => ({
        pet: await createPet(pet, { name: `Interleaved ${index}`, categoryId: 2 }),
        message: await sendMessage(message, index),
      })),
    );
    for (const { pet, message, index } of pairs) {
      const original = firsts[index] as (typeof firsts)[number];
      expect([original.pet.status, original.message.status]).toEqual([201, 202]);
      const petReplay = await createPet(pet, { name: `Interleaved ${index}`, categoryId: 2 });
      const messageReplay = await sendMessage(message, index);
      expect([petReplay.status, petReplay.headers.get('idempotent-replayed'), petReplay.json]).toEqual([201, 'true', original.pet.json]);
      expect([messageReplay.status, messageReplay.headers.get('idempotent-replayed'), messageReplay.json]).toEqual([
        202,
        'true',
        original.message.json,
      ]);
    }
  });
});
