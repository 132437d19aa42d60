import type { ApiAnswer, TestApi } from './test-api';

/** What a round of mixed traffic got back, and which writes the API acknowledged. */
export interface Round {
  readonly answers: readonly ApiAnswer[];
  readonly acknowledgedPets: readonly string[];
  readonly acknowledgedMessages: readonly string[];
  readonly slowestMs: number;
}

let sequence = 0;

/**
 * Writes and reads of every operation, one create with `Idempotency-Key` (its claim record and its
 * pet are two writes, either of which a fault can hit), some with a key the authorizer has never seen.
 */
export async function mixedRound(api: TestApi, knownPetId: number): Promise<Round> {
  const fresh = await api.issueKey('acct_fresh').catch(() => undefined);
  const names = Array.from({ length: 3 }, () => `traffic-${process.pid}-${sequence++}`);
  const started = performance.now();
  const timed = async (call: Promise<ApiAnswer>) => {
    const answer = await call;
    return { answer, ms: performance.now() - started };
  };
  const results = await Promise.all([
    ...names.map((name, index) =>
      timed(
        api.call('POST', '/v1/pets', {
          json: { name, categoryId: 1 },
          ...(index === names.length - 1 ? { headers: { 'idempotency-key': `key-${name}` } } : {}),
        }),
      ),
    ),
    timed(api.call('POST', '/messages', { json: { message: `message-${sequence++}` } })),
    timed(api.call('GET', '/v1/pets?limit=5')),
    timed(api.call('GET', '/v1/pets?status=available&limit=5')),
    timed(api.call('GET', `/v1/pets/${knownPetId}`)),
    ...(fresh ? [timed(api.call('GET', '/v1/pets?limit=1', { key: fresh.key }))] : []),
  ]);
  const answers = results.map((result) => result.answer);
  return {
    answers,
    acknowledgedPets: answers.slice(0, 3).flatMap((answer, index) => (answer.status === 201 ? [names[index] as string] : [])),
    acknowledgedMessages: answers[3]?.status === 202 ? [(answers[3].json as { id: string }).id] : [],
    slowestMs: Math.max(...results.map((result) => result.ms)),
  };
}
