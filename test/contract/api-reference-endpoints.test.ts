/**
 * The local server's reference pages: the OpenAPI document and the Swagger UI page, both readable
 * without a key, both from this machine only (no CDN). They are not API operations, so these
 * requests use fetch directly rather than the contract-checked `call`.
 */
import type { OpenApiDocument } from '../../openapi/types';
import { useTestApi, expectError } from '../support/test-api';
import { openApiDocument as committed } from './openapi-contract';

const api = useTestApi();

/** The document without its server lists, which the local server adapts to itself. */
function withoutServers(document: OpenApiDocument): unknown {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, { servers: _servers, ...operation }]) => [method, operation])),
    ]),
  );
  return { ...document, servers: [], paths };
}

describe('GET /v1/openapi.json', () => {
  test('answers the committed document without a key, listing this server first with its real port', async () => {
    const response = await fetch(`${api.petsBaseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const served = (await response.json()) as OpenApiDocument;

    expect(withoutServers(served)).toEqual(withoutServers(committed));
    const port = new URL(api.origin).port;
    expect(served.servers[0]).toMatchObject({ url: 'http://127.0.0.1:{port}/v1', variables: { port: { default: port } } });
    expect(served.paths['/messages']?.post?.servers?.[0]).toMatchObject({
      url: 'http://127.0.0.1:{messagesPort}',
      variables: { messagesPort: { default: port } },
    });
    expect(new Set(served.servers.map((server) => server.description))).toEqual(
      new Set(committed.servers.map((server) => server.description)),
    );
  });

  test('other methods are API calls like any other path: 401 without a key', async () => {
    expectError(await api.call('POST', '/v1/openapi.json', { key: null, json: {} }), 401, 'unauthorized');
  });
});

describe('GET /docs', () => {
  test('answers the API reference page without a key, loading only scripts and styles of this server', async () => {
    const response = await fetch(`${api.origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThanOrEqual(3);
    for (const reference of references) expect(reference).toMatch(/^\/docs\/assets\//);
  });

  test.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
  ])('serves its asset %s from node_modules', async (asset, type) => {
    const response = await fetch(`${api.origin}/docs/assets/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect((await response.text()).length).toBeGreaterThan(100);
  });

  test('start.js points Swagger UI at /v1/openapi.json and turns off the online validator', async () => {
    const response = await fetch(`${api.origin}/docs/assets/start.js`);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    expect(script).toContain('"/v1/openapi.json"');
    expect(script).toContain('validatorUrl: null');
  });

  test('any other file under /docs answers 404, however its path is written', async () => {
    expect((await fetch(`${api.origin}/docs/assets/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${api.origin}/docs/assets/index.html`)).status).toBe(404);
  });
});
