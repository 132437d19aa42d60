/**
 * `npm run smoke`'s checks (scripts/smoke/checks.ts) against the local server: all pass; and against a
 * server that breaks the contract in small ways a client would notice, they fail, naming what broke.
 */
import { createServer, type Server } from 'node:http';
import { runSmokeChecks, type CheckResult } from '../../scripts/smoke/checks';
import { useTestApi } from '../support/test-api';

const api = useTestApi();

test('every smoke check passes against the local server, and a read-only run stores nothing', async () => {
  const { results, created } = await runSmokeChecks(
    { petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, key: api.key, readOnly: false },
    () => undefined,
  );
  expect(results.filter((result) => result.outcome === 'fail')).toEqual([]);
  // The account API's checks and the bare preflight need the new versions invoked directly (the pre-traffic hook).
  expect(results.filter((result) => result.outcome === 'skip').map((result) => result.detail)).toEqual([
    'no --origin given',
    ...Array<string>(3).fill('the pre-traffic hook only: it calls the new versions with no API Gateway in front'),
  ]);
  expect(created.pets.length).toBeGreaterThanOrEqual(4);
  expect(created.messages).toHaveLength(1);

  const before = await Promise.all([api.scan('pets'), api.scan('messages')]);
  const readOnly = await runSmokeChecks(
    { petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, key: api.key, readOnly: true },
    () => undefined,
  );
  expect(readOnly.results.filter((result) => result.outcome === 'fail')).toEqual([]);
  expect(readOnly.results.filter((result) => result.outcome === 'skip')).toHaveLength(8);
  expect(await Promise.all([api.scan('pets'), api.scan('messages')])).toEqual(before);
});

/** A proxy in front of the local API that drops the Sunset header and answers 404s with another body. */
async function contractBreakingProxy(target: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${target}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers: Object.fromEntries(
          Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host'),
        ),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const headers = Object.fromEntries(
        [...upstream.headers].filter(([name]) => name !== 'sunset' && name !== 'content-length' && name !== 'content-encoding'),
      );
      const body = upstream.status === 404 ? '{"message":"Not Found"}' : Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, headers);
      response.end(body);
    })();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { origin: `http://127.0.0.1:${address.port}`, close: () => new Promise((closed) => server.close(() => closed())) };
}

test('against a server that breaks the contract, the checks that see it fail and say why', async () => {
  const proxy = await contractBreakingProxy(api.origin);
  try {
    const failed: CheckResult[] = [];
    const { results } = await runSmokeChecks(
      { petsBaseUrl: `${proxy.origin}/v1`, messagesBaseUrl: proxy.origin, key: api.key, readOnly: false },
      (result) => {
        if (result.outcome === 'fail') failed.push(result);
      },
    );
    expect(failed.map((result) => result.name)).toEqual([
      'POST /pets answers 201 with the pet and a Location that fetches it, with Deprecation and Sunset',
      'GET /pets/{petId} of an unknown id answers 404 not_found, still deprecated; a malformed one 400',
      'an unknown route answers 404 not_found (401 without a key)',
    ]);
    expect(failed.map((result) => result.detail).join('\n')).toMatch(/required header Sunset is missing/);
    expect(results.filter((result) => result.outcome === 'pass').length).toBeGreaterThan(5);
  } finally {
    await proxy.close();
  }
});
