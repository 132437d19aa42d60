/**
 * `npm start` as a user runs it: a real process on a data directory, the printed contract (pets base
 * URL, dev key), clean SIGTERM, data kept across restarts, and the keys CLI next to it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueApiKey } from '../../lambda/shared/api-keys';
import { killLeftoverServers, PROJECT_ROOT as ROOT, startLocalServerProcess, type LocalServerProcess } from '../support/local-process';

const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dataDir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
const devKey = issueApiKey({ accountId: 'x' }).key;
afterAll(async () => {
  await killLeftoverServers();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string> = {}) => startLocalServerProcess({ PETSTORE_DATA_DIR: dataDir, ...env });
const stop = (running: LocalServerProcess) => running.stop();

const keysCli = (...args: string[]) =>
  spawnSync(TSX, ['scripts/keys.ts', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, PETSTORE_DATA_DIR: dataDir },
    encoding: 'utf8',
  });

test('npm start serves the API with the given dev key, stops cleanly on SIGTERM and keeps data across restarts', async () => {
  const first = await start({ PETSTORE_DEV_API_KEY: devKey });
  expect(first.output()).toMatch(/DynamoDB engine: (Amazon DynamoDB Local \(Java\)|dynalite)/);
  // A key given in the environment is never echoed.
  expect(first.output()).toContain('Dev API key: the one in PETSTORE_DEV_API_KEY');
  expect(first.output()).not.toContain(devKey);
  expect(first.output()).toContain('Throttle: 20 requests/s, bursts of 40, per API');
  expect(first.output()).toContain(`Messages base URL: ${first.origin}`);

  const auth = { authorization: `Bearer ${devKey}` };
  const created = await fetch(`${first.petsBaseUrl}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"name":"Survivor","categoryId":4}',
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number };
  const message = await fetch(`${first.origin}/messages`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"message":"hi"}',
  });
  expect(message.status).toBe(202);

  // The keys CLI talks to the running server's engine: a key it issues works at once.
  const issued = keysCli('create', '--account', 'acct_cli');
  expect(issued.status).toBe(0);
  const { key, keyId } = JSON.parse(issued.stdout) as { key: string; keyId: string };
  expect((await fetch(`${first.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  const listed = JSON.parse(keysCli('list').stdout) as { keyId: string; accountId: string }[];
  expect(listed).toContainEqual(expect.objectContaining({ keyId, accountId: 'acct_cli' }));
  expect(JSON.stringify(listed)).not.toContain(key);

  expect(await stop(first)).toBe(0);
  expect(first.output()).toContain('SIGTERM: finishing in-flight requests and stopping');

  // Same data directory, no PETSTORE_DEV_API_KEY: the earlier data and keys are still there, and a
  // dev key of its own is created (an explicit PETSTORE_DEV_API_KEY is never written to disk).
  const second = await start();
  try {
    const fetched = await fetch(`${second.petsBaseUrl}/pets/${pet.id}`, { headers: auth });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({ id: pet.id, name: 'Survivor', categoryId: 4, status: 'available' });
    // A key of its own is printed once; the suggested command reads it from the data directory.
    const newKey = /Dev API key \(new\): (\S+)/.exec(second.output())?.[1] ?? 'none printed';
    expect(second.output().split(newKey)).toHaveLength(2);
    expect(second.output()).toContain(
      `Try: curl -H "Authorization: Bearer $(cat ${join(dataDir, 'dev-api-key')})" ${second.petsBaseUrl}/pets`,
    );

    // A revoked key is refused (it was cached only by the first process).
    expect(keysCli('revoke', keyId).status).toBe(0);
    const refused = await fetch(`${second.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: 'unauthorized', message: 'the API key has been revoked', status: 401 });
  } finally {
    expect(await stop(second)).toBe(0);
  }

  // A third start prints the same generated dev key again: it is kept in the data directory.
  const secondKey = /Dev API key \(new\): (\S+)/.exec(second.output())?.[1];
  const third = await start();
  try {
    expect(third.output()).toContain(`Dev API key (data directory): ${secondKey}`);
    expect((await fetch(`${third.petsBaseUrl}/pets/${pet.id}`, { headers: { authorization: `Bearer ${secondKey}` } })).status).toBe(200);
  } finally {
    expect(await stop(third)).toBe(0);
  }
}, 180_000);

test('the keys CLI explains its usage and refuses unknown commands', () => {
  const help = spawnSync(TSX, ['scripts/keys.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/create .*list.*revoke/s);
  const unknown = spawnSync(TSX, ['scripts/keys.ts', 'rotate'], { cwd: ROOT, encoding: 'utf8' });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('unknown command: rotate');
});
