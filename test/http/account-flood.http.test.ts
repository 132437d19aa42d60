/**
 * One anonymous client flooding the account API with junk access tokens, and a signed-in user who must revoke a
 * leaked key meanwhile. API Gateway counts a request against its route's throttle before the JWT authorizer
 * refuses it (docs/accounts.md, "Under a flood"), so a refused junk token spends a token of that route's bucket.
 * Each route has a bucket of its own: a flood of the other routes leaves the user the two calls a revocation
 * needs (`GET /account/keys`, `DELETE /account/keys/{keyId}`); a flood aimed at those two takes them, which only
 * the front door's per-client limits stop. The throttle's clock stands still, so no refill races the flood.
 */
import { newUser, type SignedIn } from '../support/cognito-users';
import { useTestApi } from '../support/test-api';

const BURST = 5;
const JUNK_TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Imp1bmsifQ.eyJzdWIiOiJub2JvZHkifQ.bm90LWEtc2lnbmF0dXJl';

/** A local stack whose every route has a bucket of BURST tokens that never refills, and a user with a key to revoke. */
function floodedStack() {
  const api = useTestApi({ accounts: true, throttle: { rateLimit: 1, burstLimit: BURST }, now: () => 0 });
  const state = { user: undefined as SignedIn | undefined, keyId: '' };
  beforeAll(async () => {
    if (!api.accounts) throw new Error('the test API runs without accounts');
    state.user = await newUser(api.accounts);
    const created = await api.call('POST', '/account/keys', { key: state.user.accessToken, json: { description: 'leaked' } });
    state.keyId = (created.json as { keyId: string }).keyId;
  }, 30_000);

  /** What one junk-token client gets from 3 × BURST calls of each route, by status. */
  const flood = async (routes: readonly (readonly [string, string])[]): Promise<Record<string, number>> => {
    const statuses: Record<string, number> = {};
    for (const [method, path] of routes)
      for (let index = 0; index < 3 * BURST; index++) {
        const answer = await fetch(`${api.origin}${path}`, { method, headers: { authorization: `Bearer ${JUNK_TOKEN}` } });
        await answer.arrayBuffer();
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
    return statuses;
  };
  const asUser = (method: string, path: string) => api.call(method, path, { key: state.user?.accessToken ?? null });
  return { flood, asUser, keyId: () => state.keyId };
}

describe('a junk-token flood of the other account routes and of unknown paths', () => {
  const { flood, asUser, keyId } = floodedStack();

  test("leaves a signed-in user the listing and the revocation: each route's bucket is its own", async () => {
    const routes = [
      ['POST', '/account/keys'],
      ['DELETE', '/account'],
      ['GET', '/account/anything'],
    ] as const;
    // Every bucket runs dry: the JWT authorizer's 401 while it lasts (one POST token went to the user's create), then 429.
    expect(await flood(routes)).toEqual({ 401: 3 * BURST - 1, 429: 3 * 2 * BURST + 1 });

    const listed = await asUser('GET', '/account/keys');
    expect(listed.status).toBe(200);
    expect((listed.json as { keys: { keyId: string }[] }).keys.map((key) => key.keyId)).toContain(keyId());
    const revoked = await asUser('DELETE', `/account/keys/${keyId()}`);
    expect({ status: revoked.status, body: revoked.json }).toMatchObject({ status: 200, body: { keyId: keyId(), status: 'revoked' } });
  });
});

describe('a junk-token flood aimed at the revocation route', () => {
  const { flood, asUser, keyId } = floodedStack();

  test('takes its bucket: without a front door the user gets the 429 the flood caused', async () => {
    expect(await flood([['DELETE', '/account/keys/key_0123456789abcdef']])).toEqual({ 401: BURST, 429: 2 * BURST });
    const refused = await asUser('DELETE', `/account/keys/${keyId()}`);
    expect({ status: refused.status, body: refused.json }).toEqual({ status: 429, body: { message: 'Too Many Requests' } });
  });
});
