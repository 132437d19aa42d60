/**
 * A user creates keys through the account API while the database stutters, retrying each 503 as the documents
 * advise. However the pauses fall (an SDK attempt held past its timeout and retried, or every attempt held until
 * the function answered 503, its writes applied once the database resumes), each key the user was given counts
 * once: the account lists exactly those keys as active, and the day's limit allows exactly the rest.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { MAX_KEYS_CREATED_PER_DAY } from '#contract/account-limits';
import type { LocalAccounts } from '#local/identity/accounts';
import { newUser, type SignedIn } from '../support/cognito-users';
import { testEndpoint } from '../support/local-dynamodb';
import { pauseGate } from '../support/pause-gate';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/test-api';

/** Short, so a held attempt times out and is retried (or the call given up) within a second or two; long enough that a busy machine's database seldom times out unpaused. */
const REQUEST_TIMEOUT_MS = 500;

const gate = pauseGate();
let started: TestApi | undefined;

beforeAll(async () => {
  const dynamodb = await gate.proxy(testEndpoint());
  started = await startTestApi({
    accounts: true,
    functionEnvironment: { DYNAMODB_ENDPOINT: dynamodb.origin, DYNAMODB_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
}, 60_000);
afterAll(async () => {
  await started?.close();
  await gate.close();
});

const api = (): TestApi => {
  if (!started) throw new Error('the test API did not start');
  return started;
};
const accounts = (): LocalAccounts => {
  const { accounts: started } = api();
  if (!started) throw new Error('the test API runs without accounts');
  return started;
};

const postKey = (user: SignedIn): Promise<ApiAnswer> =>
  api().call('POST', '/account/keys', { key: user.accessToken, json: { description: 'stutter' } });

/**
 * What a user does: the same request again after each 503, until it answers otherwise. Every call here goes so: with
 * the short SDK timeout, a busy machine's database times out now and then even unpaused.
 */
async function untilNot503(first: Promise<ApiAnswer>, again: () => Promise<ApiAnswer>): Promise<ApiAnswer> {
  let answer = await first;
  while (answer.status === 503) answer = await again();
  return answer;
}
const asUser = (call: () => Promise<ApiAnswer>): Promise<ApiAnswer> => untilNot503(call(), call);

const keyIdOf = (answer: ApiAnswer): string => {
  expect(answer.status).toBe(201);
  return (answer.json as { keyId: string }).keyId;
};

/** The active keys the account lists, and how many more it may create today (each revoked at once, to stay under the cap). */
async function whatTheAccountShows(user: SignedIn): Promise<{ active: string[]; createsLeftToday: number }> {
  const listed = await asUser(() => api().call('GET', '/account/keys', { key: user.accessToken }));
  expect(listed.status).toBe(200);
  const { keys } = listed.json as { keys: { keyId: string; status: string }[] };
  const active = keys.filter(({ status }) => status === 'active').map(({ keyId }) => keyId);
  let createsLeftToday = 0;
  for (;;) {
    const answer = await asUser(() => postKey(user));
    if (answer.status !== 201) {
      expect({ status: answer.status, code: (answer.json as { code?: string }).code }).toEqual({
        status: 429,
        code: 'daily_key_limit_reached',
      });
      return { active: active.sort(), createsLeftToday };
    }
    createsLeftToday++;
    const revoked = await asUser(() => api().call('DELETE', `/account/keys/${keyIdOf(answer)}`, { key: user.accessToken }));
    expect(revoked.status).toBe(200);
  }
}

/**
 * One create paused at its `step`-th request to DynamoDB (0: the claim on the account's item, 1: the key's put), resumed
 * once the SDK has retried the held attempt, or once the function has answered; the user retries each 503.
 */
async function createPaused(user: SignedIn, step: number, resumeOnce: 'retried' | 'answered'): Promise<string> {
  const from = gate.steps.length;
  gate.pauseAt(from + step);
  const first = postKey(user);
  // (Or once it answered: a busy machine's spurious timeout may have ended it before the paused step.)
  await (resumeOnce === 'retried' ? Promise.race([gate.arrived(from + step + 2), first]) : first);
  await gate.resume();
  return keyIdOf(await untilNot503(first, () => postKey(user)));
}

test('keys created while the database pauses at each step, retried on 503, count once each: listed active and against the day', async () => {
  const user = await newUser(accounts());
  // The day's first create reads the account's item twice (a new day's claim after the same day's is refused): not paused.
  const given = [keyIdOf(await asUser(() => postKey(user)))];
  given.push(await createPaused(user, 0, 'retried'));
  given.push(await createPaused(user, 0, 'answered'));
  given.push(await createPaused(user, 1, 'retried'));
  given.push(await createPaused(user, 1, 'answered'));

  expect(await whatTheAccountShows(user)).toEqual({ active: given.sort(), createsLeftToday: MAX_KEYS_CREATED_PER_DAY - given.length });
}, 60_000);

/** The stutter seen from outside (paused 2.6 s, resumed 0.12 s, over a 2 s request timeout), at a quarter of the scale. */
const STUTTER = { pausedMs: 650, resumedMs: 30 };

test('keys created while the database stutters, retried on 503, count once each: listed active and against the day', async () => {
  const user = await newUser(accounts());
  const creates = (async () => {
    const given: string[] = [];
    while (given.length < 4) given.push(keyIdOf(await asUser(() => postKey(user))));
    return given;
  })();
  const ended = creates.then(() => true);
  // A schedule of faults, not a wait for an event: whatever the pauses hit, the outcome asserted is the same.
  for (;;) {
    gate.pauseAt(gate.steps.length);
    const done = await Promise.race([ended, delay(STUTTER.pausedMs).then(() => false)]);
    await gate.resume();
    if (done) break;
    await delay(STUTTER.resumedMs);
  }
  const given = await creates;

  expect(await whatTheAccountShows(user)).toEqual({ active: given.sort(), createsLeftToday: MAX_KEYS_CREATED_PER_DAY - given.length });
}, 60_000);
