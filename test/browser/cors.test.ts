/**
 * A web page on another origin calls the local API from a real browser (test/support/chromium.ts),
 * which sends the preflight and enforces the answer's CORS headers itself: the page on the configured
 * origin gets its answers, a page on any other origin is refused by the browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserTestOf, useBrowserAndApi } from '../support/chromium';

const { browserTest, skipNote } = browserTestOf('the CORS browser test');

/** A site of its own: one empty page, on `http://localhost:<port>` (another origin than the API's 127.0.0.1). */
async function startSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end('<!doctype html><title>a client site</title>');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

let allowedSite: { origin: string; server: Server };
let otherSite: { origin: string; server: Server };
beforeAll(async () => {
  [allowedSite, otherSite] = await Promise.all([startSite(), startSite()]);
});
afterAll(() => {
  allowedSite.server.close();
  otherSite.server.close();
});
// The API allows the first site's origin only.
const session = useBrowserAndApi(() => ({ corsOrigins: [allowedSite.origin] }));

/** What the page's script saw of two identical creates with one Idempotency-Key, and of a listing. */
interface PageOutcome {
  readonly statuses?: number[];
  readonly location?: string | null;
  readonly replayed?: (string | null)[];
  readonly listed?: number;
  readonly error?: string;
}

async function callFromPage(siteOrigin: string): Promise<PageOutcome> {
  const { api, browser } = session();
  const page = await browser.newPage();
  try {
    await page.goto(`${siteOrigin}/`);
    return await page.evaluate(
      async ({ petsBaseUrl, key, idempotencyKey }): Promise<PageOutcome> => {
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey };
        const create = () =>
          fetch(`${petsBaseUrl}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
        try {
          const first = await create();
          const again = await create();
          const listing = await fetch(`${petsBaseUrl}/pets?limit=5`, { headers: { authorization: `Bearer ${key}` } });
          const pets = (await listing.json()) as unknown[];
          return {
            statuses: [first.status, again.status, listing.status],
            location: first.headers.get('location'),
            replayed: [first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')],
            listed: pets.length,
          };
        } catch (error) {
          return { error: String(error) };
        }
      },
      { petsBaseUrl: api.petsBaseUrl, key: api.key, idempotencyKey: crypto.randomUUID() },
    );
  } finally {
    await page.close();
  }
}

browserTest(
  `a page on a configured origin creates a pet with a key and an Idempotency-Key and reads Location and Idempotent-Replayed${skipNote}`,
  async () => {
    const outcome = await callFromPage(allowedSite.origin);
    const { api } = session();
    expect(outcome).toEqual({
      statuses: [201, 201, 200],
      location: expect.stringMatching(new RegExp(`^${api.petsBaseUrl}/pets/\\d+$`)),
      replayed: [null, 'true'],
      listed: 1,
    });
  },
  60_000,
);

browserTest(
  `a page on an origin that is not configured is refused by the browser, and nothing is stored${skipNote}`,
  async () => {
    const { api } = session();
    const before = await api.scan('pets');
    const outcome = await callFromPage(otherSite.origin);
    expect(outcome).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
    expect(await api.scan('pets')).toEqual(before);
  },
  60_000,
);
