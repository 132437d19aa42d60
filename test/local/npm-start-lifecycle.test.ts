/**
 * `npm start` killed and stopped as users do it: `kill -9` must not leave its database engine running
 * (nor let a second engine onto the same data), a second `npm start` on a busy data directory is
 * refused, no acknowledged write is lost across the kills, and SIGTERM under load drains within a bound.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueApiKey } from '../../lambda/shared/api-keys';
import { chooseEngine } from '../../local/dynamodb-engine';
import { enginesOn } from '../../local/engine-orphans';
import { waitForExit } from '../../local/processes';
import { HTTP_LIMITS } from '../../local/server';
import { killLeftoverServers, spawnLocalServer, startLocalServerProcess } from '../support/local-process';

/** `npm test` runs one round; `PETSTORE_KILL_ROUNDS=10 npm test -- test/local/npm-start-lifecycle` runs more. */
const KILL_ROUNDS = Number(process.env.PETSTORE_KILL_ROUNDS ?? 1);
const key = issueApiKey({ accountId: 'acct_lifecycle' }).key;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const dataDir = mkdtempSync(join(tmpdir(), 'petstore-lifecycle-'));
const dbPath = join(dataDir, 'dynamodb-local');
afterAll(async () => {
  await killLeftoverServers();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => startLocalServerProcess({ PETSTORE_DATA_DIR: dataDir, PETSTORE_DEV_API_KEY: key, PETSTORE_THROTTLE: 'off' });
const withDynamoDbLocal = chooseEngine() === 'dynamodb-local' ? test : test.skip;
const acknowledged = new Map<number, string>();

async function expectAcknowledgedPets(petsBaseUrl: string): Promise<void> {
  for (const [id, name] of acknowledged) {
    const fetched = await fetch(`${petsBaseUrl}/pets/${id}`, { headers });
    expect({ status: fetched.status, name: ((await fetched.json()) as { name?: string }).name }).toEqual({ status: 200, name });
  }
}

withDynamoDbLocal(
  `kill -9 (${KILL_ROUNDS} round${KILL_ROUNDS === 1 ? '' : 's'}): the engine stops with its server, a second npm start is refused meanwhile, and the next start has one engine and every acknowledged write`,
  async () => {
    for (let round = 1; round <= KILL_ROUNDS; round++) {
      const server = await start();
      // One engine on the data, whatever the previous server left.
      expect(enginesOn(dbPath)).toHaveLength(1);
      await expectAcknowledgedPets(server.petsBaseUrl);
      for (let index = 0; index < 3; index++) {
        const name = `round-${round}-${index}`;
        const created = await fetch(`${server.petsBaseUrl}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        expect(created.status).toBe(201);
        acknowledged.set(((await created.json()) as { id: number }).id, name);
      }
      if (round === 1) {
        const second = spawnLocalServer({ PETSTORE_DATA_DIR: dataDir, PETSTORE_DEV_API_KEY: key });
        expect(await second.exited).toBe(1);
        expect(second.output()).toContain(`${dataDir} is in use by npm start (pid ${server.child.pid}); stop it first`);
        expect(enginesOn(dbPath)).toHaveLength(1);
      }
      const [engine] = enginesOn(dbPath);
      server.child.kill('SIGKILL');
      await server.exited;
      // The engine notices its parent is gone (its stdin closes) and stops on its own.
      expect(await waitForExit(engine as number, 5_000)).toBe(true);
      expect(enginesOn(dbPath)).toEqual([]);
    }
  },
  60_000 + KILL_ROUNDS * 30_000,
);

test('started again after that, SIGTERM under load: at most two more answers per open connection, an exit within the drain bound, no engine left', async () => {
  const server = await start();
  await expectAcknowledgedPets(server.petsBaseUrl);
  const connections = 16;
  const signal: { at?: number } = {};
  const afterSignal = new Map<number, number>();
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolveDone) => (finished = resolveDone));
  const load = autocannon({ url: `${server.petsBaseUrl}/pets?limit=5`, connections, duration: 8, headers }, () => finished());
  load.on('response', (_client, status) => {
    if (signal.at !== undefined) afterSignal.set(status, (afterSignal.get(status) ?? 0) + 1);
  });
  await new Promise((wake) => setTimeout(wake, 1_500));
  const signalledAt = performance.now();
  signal.at = signalledAt;
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const exitedAfterMs = performance.now() - signalledAt;
  load.stop();
  await done;
  const answers = [...afterSignal.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `SIGTERM under load: ${answers} answers after the signal ${JSON.stringify(Object.fromEntries(afterSignal))}, exit ${exitedAfterMs.toFixed(0)} ms after it`,
  );
  // Per connection: the request in flight when the drain began (answered with connection: close), or
  // one sent just as it began (503, connection: close), plus one answered between kill() and the
  // server's signal handler. Before the drain, the server kept answering until the load stopped.
  expect(answers).toBeLessThanOrEqual(2 * connections);
  expect([...afterSignal.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
  expect(exitedAfterMs).toBeLessThan(HTTP_LIMITS.drainTimeoutMs + 5_000);
  expect(server.output()).toContain('SIGTERM: finishing in-flight requests and stopping');
  expect(enginesOn(dbPath)).toEqual([]);
}, 60_000);
