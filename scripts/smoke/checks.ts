/** The black-box checks `npm run smoke` makes against a stage, every answer also held to the OpenAPI documents. */
import { randomUUID } from 'node:crypto';
import { isWellFormedApiKey } from '#auth/api-keys';
import { contractViolations, readAnswer, type ReadAnswer } from '#openapi/contract-check';

/**
 * `readOnly` creates nothing (prod's pets cannot be deleted); `corsOrigin` is an allowed origin whose preflight is
 * checked; `fetch` sends the requests (the pre-traffic hook's answers come from the new versions, shared/gateway-events.ts);
 * `bounded` skips the check that pages through every pet of a status, whose time grows with the data.
 */
export interface SmokeTarget {
  readonly petsBaseUrl: string;
  readonly messagesBaseUrl: string;
  readonly key: string;
  readonly readOnly: boolean;
  readonly corsOrigin?: string;
  readonly fetch?: typeof fetch;
  readonly bounded?: boolean;
  /** Only the pre-traffic hook's, whose requests reach the new versions with no API Gateway in front (below). */
  readonly direct?: DirectTarget;
}

/**
 * With no API Gateway in front, the account API's JWT authorizer is not there: `signIn` makes up a new user each call
 * (never one of the user pool's) and answers the bearer token that carries its claims, as a signed-in user's access
 * token would, but for the claims `overrides` replaces. The account checks need it, so `npm run smoke` (no signed-in user) skips them. OPTIONS reaches the
 * preflight route whatever the origin; API Gateway would add the CORS headers, so only the status is checked.
 */
export interface DirectTarget {
  readonly accountBaseUrl: string;
  readonly signIn: (overrides?: Readonly<Record<string, string>>) => string;
}

export interface CheckResult {
  readonly name: string;
  readonly outcome: 'pass' | 'fail' | 'skip';
  readonly detail?: string;
}

class CheckFailed extends Error {}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

const bodyOf = (answer: ReadAnswer): Record<string, unknown> =>
  typeof answer.json === 'object' && answer.json !== null ? (answer.json as Record<string, unknown>) : {};

function expectError(answer: ReadAnswer, status: number, code: string): void {
  const body = bodyOf(answer);
  check(
    answer.status === status && body.code === code && body.status === status,
    `expected ${status} ${code}, got ${answer.status} ${answer.text.slice(0, 200)}`,
  );
}

interface SendOptions {
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly contract?: boolean;
}

/** One request, its answer held to the OpenAPI document of its API. */
async function sendVia(method: string, url: string, options: SendOptions = {}, transport: typeof fetch = fetch): Promise<ReadAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const answer = await readAnswer(
    await transport(url, { method, headers, ...(options.body === undefined ? {} : { body: options.body }), redirect: 'manual' }),
  );
  if (options.contract !== false) {
    const { problems } = contractViolations({ method, url }, answer);
    check(
      problems.length === 0,
      `${method} ${url} answered ${answer.status}, which the OpenAPI documents do not allow: ${problems.join('; ')}`,
    );
  }
  return answer;
}

const nextLink = (answer: ReadAnswer): string | undefined => /^<([^>]+)>; rel="next"$/.exec(answer.headers.get('link') ?? '')?.[1];

/**
 * `writes`: skipped in read-only runs; `unbounded`: in bounded ones; `direct`: in runs without `target.direct`;
 * `run` answers a detail (a string) or nothing.
 */
interface Check {
  readonly name: string;
  readonly writes?: true;
  readonly unbounded?: true;
  readonly direct?: (direct: DirectTarget) => Promise<unknown>;
  readonly run?: () => Promise<unknown>;
}

export async function runSmokeChecks(
  target: SmokeTarget,
  report: (result: CheckResult) => void,
): Promise<{ results: CheckResult[]; created: { pets: number[]; messages: string[] } }> {
  const send = (method: string, url: string, options?: SendOptions): Promise<ReadAnswer> =>
    sendVia(method, url, options, target.fetch ?? fetch);
  const pets = `${target.petsBaseUrl}/pets`;
  const messages = `${target.messagesBaseUrl}/messages`;
  // What the run stored on the stage, so the report can say so.
  const created: { pets: number[]; messages: string[] } = { pets: [], messages: [] };
  const json = { 'content-type': 'application/json' };
  const createPet = async (name: string, extra: Record<string, string> = {}): Promise<ReadAnswer> => {
    const answer = await send('POST', pets, {
      key: target.key,
      headers: { ...json, ...extra },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    const id = bodyOf(answer).id;
    if (answer.status === 201 && typeof id === 'number' && !created.pets.includes(id)) created.pets.push(id);
    return answer;
  };
  const stamp = `smoke-${new Date().toISOString()}`;

  const checks: Check[] = [
    {
      name: 'GET /pets without a key answers 401 unauthorized with WWW-Authenticate',
      run: async () => {
        const answer = await send('GET', pets);
        expectError(answer, 401, 'unauthorized');
        check(answer.headers.get('www-authenticate') === 'Bearer realm="petstore"', 'WWW-Authenticate is missing');
      },
    },
    {
      name: 'a made-up key and a non-Bearer Authorization answer 401 unauthorized',
      run: async () => {
        expectError(await send('GET', pets, { key: `pst_${'A'.repeat(51)}` }), 401, 'unauthorized');
        expectError(await send('GET', pets, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'unauthorized');
      },
    },
    {
      name: 'GET /pets?limit=2 answers 200 with at most 2 pets',
      run: async () => {
        const answer = await send('GET', `${pets}?limit=2`, { key: target.key });
        check(
          answer.status === 200 && Array.isArray(answer.json) && answer.json.length <= 2,
          `got ${answer.status} ${answer.text.slice(0, 200)}`,
        );
        return `${(answer.json as unknown[]).length} pets${nextLink(answer) ? ', a next page' : ''}`;
      },
    },
    {
      name: 'GET /pets refuses limit=0 and an unknown parameter with 400 invalid_request',
      run: async () => {
        expectError(await send('GET', `${pets}?limit=0`, { key: target.key }), 400, 'invalid_request');
        expectError(await send('GET', `${pets}?stauts=sold`, { key: target.key }), 400, 'invalid_request');
      },
    },
    {
      name: 'POST /pets refuses bad input with 400 and a non-JSON content type with 400 unsupported_media_type (nothing stored)',
      run: async () => {
        expectError(await send('POST', pets, { key: target.key, headers: json, body: '{"name":""}' }), 400, 'invalid_request');
        expectError(await send('POST', pets, { key: target.key, headers: json, body: '{"name":' }), 400, 'invalid_json');
        expectError(
          await send('POST', pets, { key: target.key, headers: { 'content-type': 'text/plain' }, body: '{"name":"a","categoryId":1}' }),
          400,
          'unsupported_media_type',
        );
      },
    },
    {
      name: 'POST /pets answers 201 with the pet and a Location that fetches it, with Deprecation and Sunset',
      writes: true,
      run: async () => {
        const answer = await createPet(`${stamp} location`);
        const pet = bodyOf(answer);
        check(
          answer.status === 201 && typeof pet.id === 'number' && pet.status === 'available',
          `got ${answer.status} ${answer.text.slice(0, 200)}`,
        );
        const location = answer.headers.get('location');
        check(location === `${pets}/${pet.id}`, `Location ${location ?? '(none)'} is not ${pets}/${pet.id}`);
        const fetched = await send('GET', location, { key: target.key });
        check(
          fetched.status === 200 && JSON.stringify(fetched.json) === JSON.stringify(pet),
          `GET Location answered ${fetched.status} ${fetched.text.slice(0, 200)}`,
        );
        check(
          fetched.headers.get('sunset') === 'Thu, 05 Dec 2030 00:00:00 GMT' && fetched.headers.get('deprecation') !== null,
          'Deprecation/Sunset missing',
        );
        return `pet ${pet.id}`;
      },
    },
    {
      name: 'GET /pets/{petId} of an unknown id answers 404 not_found, still deprecated; a malformed one 400',
      run: async () => {
        const unknown = await send('GET', `${pets}/${Number.MAX_SAFE_INTEGER}`, { key: target.key });
        expectError(unknown, 404, 'not_found');
        check(unknown.headers.get('sunset') !== null, 'Sunset missing on the 404');
        expectError(await send('GET', `${pets}/abc`, { key: target.key }), 400, 'invalid_request');
      },
    },
    {
      name: 'an Idempotency-Key retry answers the first 201 again, marked Idempotent-Replayed, storing nothing new',
      writes: true,
      run: async () => {
        const key = { 'idempotency-key': randomUUID() };
        const first = await createPet(`${stamp} replay`, key);
        const again = await createPet(`${stamp} replay`, key);
        check(first.status === 201 && again.status === 201, `got ${first.status}, ${again.status}`);
        check(
          again.headers.get('idempotent-replayed') === 'true' && first.headers.get('idempotent-replayed') === null,
          'Idempotent-Replayed not as expected',
        );
        check(JSON.stringify(first.json) === JSON.stringify(again.json), 'the replay answered another pet');
        return `pet ${String(bodyOf(first).id)}`;
      },
    },
    {
      name: 'a status-filtered listing pages with Link until the last page, each pet once',
      writes: true,
      unbounded: true,
      run: async () => {
        for (let index = 0; index < 3; index++) await createPet(`${stamp} page ${index}`);
        const seen = new Set<number>();
        let url: string | undefined = `${pets}?status=available&limit=2`;
        let pages = 0;
        while (url && pages < 10_000) {
          const page = await send('GET', url, { key: target.key });
          check(page.status === 200 && Array.isArray(page.json), `page ${pages + 1} answered ${page.status}`);
          for (const pet of page.json as { id: number; status: string }[]) {
            check(!seen.has(pet.id) && pet.status === 'available', `pet ${pet.id} seen twice or not available`);
            seen.add(pet.id);
          }
          url = nextLink(page);
          pages++;
        }
        check(
          created.pets.every((id) => seen.has(id)),
          'a pet this run created is missing from the listing',
        );
        return `${pages} pages, ${seen.size} pets`;
      },
    },
    {
      name: 'POST /messages on the messages base URL answers 202 queued',
      writes: true,
      run: async () => {
        const answer = await send('POST', messages, {
          key: target.key,
          headers: json,
          body: JSON.stringify({ message: `${stamp} hello` }),
        });
        const message = bodyOf(answer);
        check(
          answer.status === 202 && message.status === 'queued' && typeof message.id === 'string',
          `got ${answer.status} ${answer.text.slice(0, 200)}`,
        );
        created.messages.push(message.id);
        return `message ${message.id}`;
      },
    },
    {
      name: 'POST /messages refuses a missing message with 400 invalid_request and a non-JSON content type with 400 unsupported_media_type',
      run: async () => {
        expectError(await send('POST', messages, { key: target.key, headers: json, body: '{}' }), 400, 'invalid_request');
        const text = { 'content-type': 'text/plain' };
        expectError(
          await send('POST', messages, { key: target.key, headers: text, body: '{"message":"a"}' }),
          400,
          'unsupported_media_type',
        );
      },
    },
    {
      name: 'an unknown route answers 404 not_found (401 without a key)',
      run: async () => {
        expectError(await send('GET', `${target.petsBaseUrl}/store/orders`, { key: target.key }), 404, 'not_found');
        expectError(await send('GET', `${target.petsBaseUrl}/store/orders`), 401, 'unauthorized');
      },
    },
    {
      name: 'a CORS preflight from the configured origin answers 2xx with the allowed method and headers',
      run: async () => {
        if (!target.corsOrigin) return 'skip: no --origin given';
        for (const url of [pets, messages]) {
          const answer = await send('OPTIONS', url, {
            headers: {
              origin: target.corsOrigin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization,content-type,idempotency-key',
            },
            contract: false,
          });
          check(answer.status >= 200 && answer.status < 300, `preflight of ${url} answered ${answer.status}`);
          check(
            answer.headers.get('access-control-allow-origin') === target.corsOrigin,
            `preflight of ${url}: access-control-allow-origin ${answer.headers.get('access-control-allow-origin') ?? '(none)'}`,
          );
          const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase();
          check(
            ['authorization', 'content-type', 'idempotency-key'].every((name) => allowed.includes(name)),
            `preflight of ${url}: allow-headers ${allowed}`,
          );
        }
      },
    },
    {
      name: "a browser's CORS preflight (OPTIONS, no Authorization) answers 204 on each API",
      direct: async (direct) => {
        for (const url of [pets, messages, `${direct.accountBaseUrl}/account/keys`]) {
          const preflight = { origin: 'https://portal.example', 'access-control-request-method': 'POST' };
          const answer = await send('OPTIONS', url, { headers: preflight, contract: false });
          check(answer.status === 204, `preflight of ${url} answered ${answer.status}`);
        }
      },
    },
    {
      name: 'the account API answers a new user an empty list, refuses what would store anything, and routes it lacks with 404',
      // Prod's hook stops createAccountKey and deleteAccount at their checks of the request (as createPet): its
      // creates and deletes would be real accounts' data, and a read-only stage stores nothing.
      direct: async ({ accountBaseUrl, signIn }) => {
        const keys = `${accountBaseUrl}/account/keys`;
        const user = { key: signIn() };
        const listed = await send('GET', keys, user);
        check(
          listed.status === 200 && JSON.stringify(bodyOf(listed).keys) === '[]',
          `GET /account/keys answered ${listed.status} ${listed.text.slice(0, 200)}`,
        );
        expectError(await send('DELETE', `${keys}/key_${'0'.repeat(16)}`, user), 404, 'not_found');
        expectError(await send('DELETE', `${keys}/not-a-key-id`, user), 400, 'invalid_request');
        expectError(await send('POST', keys, { ...user, headers: json, body: '{"description":""}' }), 400, 'invalid_request');
        expectError(await send('POST', keys, { ...user, headers: json, body: '{"description":' }), 400, 'invalid_json');
        // Claims API Gateway's JWT authorizer lets through (an ID token) or would refuse itself (expired): the function refuses both.
        const expired = String(Math.floor(Date.now() / 1000) - 60);
        for (const claims of [{ exp: expired }, { token_use: 'id' }]) {
          expectError(await send('GET', keys, { key: signIn(claims) }), 401, 'unauthorized');
          expectError(await send('DELETE', `${accountBaseUrl}/account`, { key: signIn(claims) }), 401, 'unauthorized');
        }
        expectError(await send('GET', `${accountBaseUrl}/account/settings`, user), 404, 'not_found');
        expectError(await send('DELETE', keys, user), 404, 'not_found');
      },
    },
    {
      name: 'a new user creates a key, sees it listed, revokes it, sees it revoked, and deletes the account',
      writes: true,
      direct: async ({ accountBaseUrl, signIn }) => {
        const keys = `${accountBaseUrl}/account/keys`;
        const user = { key: signIn() };
        const created = await send('POST', keys, { ...user, headers: json, body: JSON.stringify({ description: `${stamp} hook` }) });
        const { keyId, key } = bodyOf(created);
        check(
          created.status === 201 && typeof keyId === 'string' && typeof key === 'string' && isWellFormedApiKey(key),
          `POST /account/keys answered ${created.status} ${created.text.slice(0, 200)}`,
        );
        const statusOf = async (): Promise<unknown> => {
          const listed = await send('GET', keys, user);
          check(listed.status === 200, `GET /account/keys answered ${listed.status}`);
          const found = (bodyOf(listed).keys as { keyId: string; status: string }[]).filter((item) => item.keyId === keyId);
          return found.length === 1 ? found[0]?.status : `listed ${found.length} times`;
        };
        check((await statusOf()) === 'active', 'the new key is not listed active');
        const revoked = await send('DELETE', `${keys}/${keyId}`, user);
        check(revoked.status === 200 && bodyOf(revoked).status === 'revoked', `DELETE answered ${revoked.status}`);
        check((await statusOf()) === 'revoked', 'the revoked key is not listed revoked');
        const deleted = await send('DELETE', `${accountBaseUrl}/account`, user);
        check(deleted.status === 204, `DELETE /account answered ${deleted.status} ${deleted.text.slice(0, 200)}`);
        return `key ${keyId}`;
      },
    },
  ];

  const results: CheckResult[] = [];
  for (const item of checks) {
    let result: CheckResult;
    if (item.writes && target.readOnly) {
      result = { name: item.name, outcome: 'skip', detail: 'read-only run: it would store data' };
    } else if (item.unbounded && target.bounded) {
      result = { name: item.name, outcome: 'skip', detail: 'bounded run: it reads every pet of a status' };
    } else if (item.direct && !target.direct) {
      result = {
        name: item.name,
        outcome: 'skip',
        detail: 'the pre-traffic hook only: it calls the new versions with no API Gateway in front',
      };
    } else {
      try {
        const { direct } = target;
        const ran = item.direct && direct ? await item.direct(direct) : await item.run?.();
        const detail = typeof ran === 'string' ? ran : undefined;
        result = detail?.startsWith('skip: ')
          ? { name: item.name, outcome: 'skip', detail: detail.slice(6) }
          : { name: item.name, outcome: 'pass', ...(detail ? { detail } : {}) };
      } catch (error) {
        result = { name: item.name, outcome: 'fail', detail: error instanceof Error ? error.message : String(error) };
      }
    }
    results.push(result);
    report(result);
  }
  return { results, created };
}

/** After the run's temporary key is revoked: refused once the authorizer's cache window has passed. */
export async function checkRevokedKeyRefused(petsBaseUrl: string, revokedKey: string): Promise<CheckResult> {
  const name = 'the revoked temporary key answers 401 unauthorized once the authorizer cache window has passed';
  try {
    expectError(await sendVia('GET', `${petsBaseUrl}/pets?limit=1`, { key: revokedKey }), 401, 'unauthorized');
    return { name, outcome: 'pass' };
  } catch (error) {
    return { name, outcome: 'fail', detail: error instanceof Error ? error.message : String(error) };
  }
}
