/**
 * A 503 storm that stores each create exactly once. A fault-injecting proxy stands between the SDK and the local
 * server; per `Idempotency-Key` it loses answers after the write happened (answering 503 `service_unavailable`
 * with `Retry-After: 1` instead: the worst case), refuses requests outright with that 503, and cuts connections.
 * Many creates run through it at once: every call must resolve with its pet or message, each stored exactly once,
 * after the retries the script forced.
 */
import { PetStoreClient, type Pet } from '../../clients/typescript/src/index.ts';
import { contractCheckedFetch, expectNoContractProblems } from './support/contract-checked-fetch';
import { startFaultProxy, type Fault, type FaultProxy } from './support/fault-proxy';
import { useTestApi } from '../support/test-api';

const api = useTestApi();
afterEach(expectNoContractProblems);

/** What the requests of the n-th call meet, by the n-th key seen: every call meets at least one fault. */
const SCRIPTS: readonly (readonly Fault[])[] = [
  ['lose-answer'],
  ['refuse', 'lose-answer'],
  ['reset', 'refuse'],
  ['lose-answer', 'reset', 'lose-answer'],
  ['refuse', 'refuse', 'reset', 'lose-answer'],
];

let proxy: FaultProxy;
const scriptOf = new Map<string, readonly Fault[]>();
beforeAll(async () => {
  proxy = await startFaultProxy(api.origin, (key) => {
    let script = scriptOf.get(key);
    if (!script) {
      script = SCRIPTS[scriptOf.size % SCRIPTS.length] ?? [];
      scriptOf.set(key, script);
    }
    return script;
  });
});
afterAll(() => proxy.close());

test('25 concurrent creates through lost answers, refusals and cut connections: all resolve, each stored once', async () => {
  const client = new PetStoreClient({
    petsBaseUrl: `${proxy.origin}/v1`,
    messagesBaseUrl: proxy.origin,
    apiKey: api.key,
    fetch: contractCheckedFetch,
    // The proxy's Retry-After: 1 is honoured up to this cap, so the storm does not wait real seconds.
    retry: { maxAttempts: 6, maxDelayMs: 25 },
  });
  const run = `storm-${Date.now()}`;
  const petNames = Array.from({ length: 20 }, (_, index) => `${run}-pet-${index}`);
  const texts = Array.from({ length: 5 }, (_, index) => `${run}-message-${index}`);

  const [pets, messages] = await Promise.all([
    Promise.all(petNames.map((name, index) => client.createPet({ name, categoryId: 1 + (index % 3) }))),
    Promise.all(texts.map((text) => client.submitMessage(text))),
  ]);

  // Every call resolved with what it created.
  expect(pets.map((pet: Pet) => pet.name)).toEqual(petNames);
  expect(new Set(pets.map((pet) => pet.id)).size).toBe(petNames.length);
  expect(messages.map((message) => message.message)).toEqual(texts);

  // Each stored exactly once, though most were written by a request whose answer the proxy threw away.
  const storedPets = (await api.scan('pets')).filter((item) => String(item.name).startsWith(run));
  expect(storedPets.map((item) => item.name).sort()).toEqual([...petNames].sort());
  expect(storedPets.map((item) => item.id).sort()).toEqual(pets.map((pet) => pet.id).sort());
  const storedMessages = (await api.scan('messages')).filter((item) => String(item.message).startsWith(run));
  expect(storedMessages.map((item) => item.id).sort()).toEqual(messages.map((message) => message.id).sort());

  // The SDK retried each call through its whole script, with one key per call: 25 keys, each seen once per fault and once more.
  expect(scriptOf.size).toBe(petNames.length + texts.length);
  for (const [key, script] of scriptOf) expect({ key, hits: proxy.hits.get(key) }).toEqual({ key, hits: script.length + 1 });
  const totalHits = [...proxy.hits.values()].reduce((sum, hits) => sum + hits, 0);
  expect(totalHits).toBeGreaterThan(2 * scriptOf.size);
}, 60_000);
