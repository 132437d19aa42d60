/**
 * A 429 storm: the local gateway's throttle (API Gateway's token bucket per route) set far below the load, many
 * calls at once. With a generous retry budget every call gets through, backing off; with `maxAttempts: 1` the
 * throttled ones fail as `GatewayError` 429. Either way nothing is stored twice, and nothing for a call that failed.
 */
import { GatewayError, PetStoreClient, type Pet, type RetryOptions } from '../../clients/typescript/src/index.ts';
import { contractCheckedFetch, expectNoContractProblems } from './support/contract-checked-fetch';
import { useTestApi } from '../support/test-api';

// 4 requests a second per route, bursts of 4: a storm of 20 creates needs about four seconds to get through.
const api = useTestApi({ throttle: { rateLimit: 4, burstLimit: 4 } });
afterEach(expectNoContractProblems);

const client = (retry: RetryOptions): PetStoreClient =>
  new PetStoreClient({ petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, apiKey: api.key, fetch: contractCheckedFetch, retry });

const storedNamed = async (prefix: string): Promise<string[]> =>
  (await api.scan('pets'))
    .map((item) => String(item.name))
    .filter((name) => name.startsWith(prefix))
    .sort();

test('with a generous budget every call of the storm gets through, each pet stored once', async () => {
  let throttled = 0;
  const patient = client({
    maxAttempts: 40,
    baseDelayMs: 50,
    maxDelayMs: 1_000,
    onRetry: ({ error }) => {
      if (error instanceof GatewayError && error.status === 429) throttled++;
    },
  });
  const run = `throttled-${Date.now()}`;
  const names = Array.from({ length: 20 }, (_, index) => `${run}-${index}`);

  const [pets, listed] = await Promise.all([
    Promise.all(names.map((name) => patient.createPet({ name, categoryId: 1 }))),
    // Reads share the storm (on their own route's bucket) and get through the same way.
    Promise.all(Array.from({ length: 6 }, () => patient.listPetsPage({ pageSize: 1 }))),
  ]);

  expect(pets.map((pet: Pet) => pet.name)).toEqual(names);
  expect(listed).toHaveLength(6);
  expect(throttled).toBeGreaterThan(0);
  expect(await storedNamed(run)).toEqual([...names].sort());
}, 60_000);

test('with maxAttempts: 1 the throttled calls fail as GatewayError 429; only the admitted ones are stored', async () => {
  const impatient = client({ maxAttempts: 1 });
  const run = `impatient-${Date.now()}`;
  const names = Array.from({ length: 12 }, (_, index) => `${run}-${index}`);

  const outcomes = await Promise.allSettled(names.map((name) => impatient.createPet({ name, categoryId: 1 })));

  const created = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.name] : []));
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  // Twelve at once against a bucket of at most four (refilled at four a second): some are refused.
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ status: 429, attempts: 1, operation: 'createPet', retryAfterSeconds: undefined });
  }
  expect(await storedNamed(run)).toEqual(created.sort());
}, 30_000);
