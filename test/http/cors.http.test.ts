/**
 * CORS through the local server as API Gateway does it for a stage with `-c corsOrigins` (local/gateway/cors.ts):
 * preflights take `OPTIONS /{proxy+}` without the authorizer, and every answer to a configured origin
 * carries the headers of shared/cors.ts. Preflights are sent raw: no operation of the OpenAPI documents
 * documents OPTIONS (API Gateway's answer, not the service's).
 */
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '#shared/cors';
import { ROUTES } from '#shared/routes';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import { loadFunctions } from '#local/gateway/functions';
import { expectError, useTestApi } from '../support/test-api';

const ALLOWED = 'https://app.example.com';
const OTHER_ALLOWED = 'http://localhost:5173';
const api = useTestApi({ corsOrigins: [ALLOWED, OTHER_ALLOWED] });

/** A route's path with its parameters filled in. */
const concrete = (path: string): string => path.replace(/\{\w+\}/g, '42');

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(`${api.origin}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,idempotency-key' },
  });

describe('with CORS origins configured', () => {
  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'a preflight for %s from a configured origin answers 204 with the configured CORS headers, without a key',
    async (_name, route) => {
      const answer = await preflight(concrete(route.path), ALLOWED, route.method);
      expect(answer.status).toBe(204);
      expect(await answer.text()).toBe('');
      expect(Object.fromEntries([...answer.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))).toEqual({
        'access-control-allow-origin': ALLOWED,
        'access-control-allow-methods': CORS_ALLOW_METHODS.join(','),
        'access-control-allow-headers': CORS_ALLOW_HEADERS.join(','),
        'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
        vary: 'origin',
      });
    },
  );

  it('the preflight allows the Authorization, Content-Type and Idempotency-Key request headers and GET and POST', async () => {
    const answer = await preflight('/v1/pets', OTHER_ALLOWED);
    expect(answer.headers.get('access-control-allow-origin')).toBe(OTHER_ALLOWED);
    expect(answer.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
    );
    expect(answer.headers.get('access-control-allow-methods')?.split(',')).toEqual(expect.arrayContaining(['GET', 'POST']));
  });

  it('a preflight for a path no route serves also answers 204: OPTIONS /{proxy+} takes every path but /', async () => {
    expect((await preflight('/v2/anything/at/all', ALLOWED)).status).toBe(204);
  });

  it("OPTIONS / is not matched by /{proxy+}: it reaches $default and the authorizer, which answer the spec's 401", async () => {
    const answer = await preflight('/', ALLOWED);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('a preflight from an origin that is not configured gets no CORS headers, so the browser refuses the call', async () => {
    const answer = await preflight('/v1/pets', 'https://evil.example.com');
    expect(answer.status).toBe(204);
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('GET /v1/pets from a configured origin answers 200 with the allowed origin, the exposed headers and Vary: origin', async () => {
    const answer = await api.call('GET', '/v1/pets?limit=1', { headers: { origin: ALLOWED } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(answer.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSE_HEADERS.join(','));
    expect(answer.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['location', 'link', 'idempotent-replayed']),
    );
    expect(answer.headers.get('vary')).toBe('origin');
    expect(answer.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('POST /v1/pets without a key from a configured origin answers 401 that the page can read', async () => {
    const answer = await api.call('POST', '/v1/pets', { key: null, headers: { origin: ALLOWED }, json: { name: 'Rex', categoryId: 1 } });
    expectError(answer, 401, 'unauthorized');
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('an answer to an origin that is not configured carries no CORS headers', async () => {
    const answer = await api.call('GET', '/v1/pets?limit=1', { headers: { origin: 'https://evil.example.com' } });
    expect(answer.status).toBe(200);
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('without CORS origins', () => {
  let plain: LocalApi;
  beforeAll(async () => {
    plain = await startLocalApi({ functions: await loadFunctions() });
  });
  afterAll(() => plain.close());

  it("a preflight reaches $default and its authorizer, as on a stage without corsOrigins: the spec's 401, no CORS headers", async () => {
    const answer = await fetch(`${plain.origin}/v1/pets`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
