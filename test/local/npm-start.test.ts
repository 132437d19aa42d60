/**
 * `npm start` as a user runs it, each test on a data directory of its own (so each passes alone): the
 * printed contract, the keys CLI next to a running server and without one, clean SIGTERM; data and the
 * dev key kept across restarts, a second `npm start` refused, `kill -9` taking the database engine with
 * it, and an engine that dies on its own stopping the server with a message that says so.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueApiKey } from '#auth/api-keys';
import { chooseEngine } from '#local/engine/dynamodb-engine';
import { cognitoCall } from '../support/cognito-users';
import {
  killLeftoverServers,
  PROJECT_ROOT as ROOT,
  spawnLocalServer,
  startLocalServerProcess,
  type LocalServerProcess,
} from '../support/local-process';
import { enginesOn, waitForExit } from '../support/processes';

/** Ceiling for a test that starts servers and the keys CLI: a hang guard on a busy machine, not a budget. */
const PROCESS_TEST_MS = 240_000;
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const WITH_DYNAMODB_LOCAL = chooseEngine() === 'dynamodb-local';

const directories: string[] = [];
const newDataDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
  directories.push(dir);
  return dir;
};
afterAll(async () => {
  await killLeftoverServers();
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

/** DynamoDB Local processes on a data directory (dynalite runs inside the server: none). */
const engines = (dataDir: string): number[] => enginesOn(join(dataDir, 'dynamodb-local'));

interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The keys CLI as its own process. Asynchronous on purpose: a synchronous spawn would stall this
 * process's event loop, and with it the HTTP client's view of its keep-alive connections.
 */
function keysCli(dataDir: string | undefined, ...args: string[]): Promise<CliResult> {
  const child = spawn(TSX, ['scripts/keys.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...(dataDir ? { PETSTORE_DATA_DIR: dataDir } : {}) },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('close', (status) => done({ status, stdout, stderr })));
}

const json = (result: CliResult): unknown => {
  if (result.status !== 0) throw new Error(`keys CLI exited with ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout);
};

const createPet = (server: LocalServerProcess, key: string, name: string) =>
  fetch(`${server.petsBaseUrl}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 4 }),
  });

test(
  'npm start serves the API with the given dev key, never printing it; the keys CLI works beside it and without it; SIGTERM stops it cleanly',
  async () => {
    const dataDir = newDataDir();
    const devKey = issueApiKey({ accountId: 'x' }).key;
    const server = await startLocalServerProcess({ PETSTORE_DATA_DIR: dataDir, PETSTORE_DEV_API_KEY: devKey });
    expect(server.output()).toMatch(/DynamoDB engine: (Amazon DynamoDB Local \(Java\)|dynalite)/);
    expect(server.output()).toContain('Dev API key: the one in PETSTORE_DEV_API_KEY');
    expect(server.output()).not.toContain(devKey);
    expect(server.output()).toContain('Throttle: 20 requests/s, bursts of 40, per API');
    expect(server.output()).toContain(`Messages base URL: ${server.origin}`);
    expect(server.output()).toContain(`API reference: ${server.origin}/portal/reference.html`);

    expect((await createPet(server, devKey, 'Survivor')).status).toBe(201);
    const message = await fetch(`${server.origin}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${devKey}`, 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    expect(message.status).toBe(202);

    // The keys CLI talks to the running server's engine: a key it issues works at once.
    const cliKey = json(await keysCli(dataDir, 'create', '--account', 'acct_cli', '--json')) as { key: string; keyId: string };
    expect((await fetch(`${server.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${cliKey.key}` } })).status).toBe(200);
    const listed = json(await keysCli(dataDir, 'list', '--json')) as { keyId: string; accountId: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ keyId: cliKey.keyId, accountId: 'acct_cli' }));
    expect(JSON.stringify(listed)).not.toContain(cliKey.key);

    // The developer portal: printed, served, and a key the CLI issues by email shows up in the user's account.
    expect(server.output()).toContain(`Developer portal (sign up, get your own key): ${server.origin}/portal/`);
    expect((await fetch(`${server.origin}/portal/`)).status).toBe(200);
    const [, cognitoEndpoint = ''] = await server.waitForOutput(/Cognito emulator at (http:\/\/127\.0\.0\.1:\d+\/)/);
    const { clientId } = (await (await fetch(`${server.origin}/portal/config.json`)).json()) as { clientId: string };
    const email = 'cli-user@example.com';
    const password = 'Correct-Horse-42';
    expect((await cognitoCall(cognitoEndpoint, 'SignUp', { ClientId: clientId, Username: email, Password: password })).status).toBe(200);
    const [, code] = await server.waitForOutput(/Confirmation code for cli-user@example\.com: (\d{6})/);
    await cognitoCall(cognitoEndpoint, 'ConfirmSignUp', { ClientId: clientId, Username: email, ConfirmationCode: code });
    const byEmail = json(await keysCli(dataDir, 'create', '--email', email, '--description', 'issued by an operator', '--json')) as {
      keyId: string;
    };
    const signedIn = await cognitoCall(cognitoEndpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
    const accessToken = (signedIn.json.AuthenticationResult as { AccessToken: string }).AccessToken;
    const portalKeys = (await (
      await fetch(`${server.origin}/account/keys`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json()) as { keys: { keyId: string; description?: string }[] };
    expect(portalKeys.keys).toEqual([expect.objectContaining({ keyId: byEmail.keyId, description: 'issued by an operator' })]);
    expect((await keysCli(dataDir, 'create', '--email', 'nobody@example.com', '--json')).status).toBe(1);

    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('SIGTERM: stopping');
    expect(engines(dataDir)).toEqual([]);

    // With no server running, the keys CLI opens the store itself (holding the data directory meanwhile).
    expect((await keysCli(dataDir, 'revoke', cliKey.keyId, '--json')).status).toBe(0);
    expect(engines(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'engine.lock'))).toBe(false);
    expect(json(await keysCli(dataDir, 'list', '--json'))).toContainEqual(
      expect.objectContaining({ keyId: cliKey.keyId, revokedAt: expect.any(String) }),
    );
  },
  PROCESS_TEST_MS,
);

test(
  'across restarts: data and the dev key are kept, a second npm start is refused, kill -9 takes the engine with it, and an engine that dies on its own stops the server saying so',
  async () => {
    const dataDir = newDataDir();
    const first = await startLocalServerProcess({ PETSTORE_DATA_DIR: dataDir });
    // No PETSTORE_DEV_API_KEY: a key of its own, printed once; the suggested command reads it from the data directory.
    const [, devKey = 'none printed'] = await first.waitForOutput(/Dev API key \(new\): (\S+)/);
    expect(first.output().split(devKey)).toHaveLength(2);
    expect(first.output()).toContain(
      `Try: curl -H "Authorization: Bearer $(cat ${join(dataDir, 'dev-api-key')})" ${first.petsBaseUrl}/pets`,
    );
    const created = await createPet(first, devKey, 'Acknowledged');
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };

    // A key the CLI issues now, and revokes once the server has restarted (which never saw it, so nothing caches it).
    const cliKey = json(await keysCli(dataDir, 'create', '--account', 'acct_cli', '--json')) as { key: string; keyId: string };

    const another = spawnLocalServer({ PETSTORE_DATA_DIR: dataDir });
    expect(await another.exited).toBe(1);
    expect(another.output()).toContain(`${dataDir} is in use by npm start (pid ${first.child.pid}); stop it first`);
    expect(engines(dataDir)).toHaveLength(WITH_DYNAMODB_LOCAL ? 1 : 0);

    const [engine] = engines(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    // DynamoDB Local notices its parent is gone (its stdin closes) and stops on its own.
    if (engine !== undefined) expect(await waitForExit(engine, 30_000)).toBe(true);
    expect(engines(dataDir)).toEqual([]);

    const second = await startLocalServerProcess({ PETSTORE_DATA_DIR: dataDir });
    expect(second.output()).toContain(`Dev API key (data directory): ${devKey}`);
    const fetched = await fetch(`${second.petsBaseUrl}/pets/${pet.id}`, { headers: { authorization: `Bearer ${devKey}` } });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({ id: pet.id, name: 'Acknowledged', categoryId: 4, status: 'available' });
    expect((await keysCli(dataDir, 'revoke', cliKey.keyId, '--json')).status).toBe(0);
    const refused = await fetch(`${second.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${cliKey.key}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: 'unauthorized', message: 'the API key has been revoked', status: 401 });

    const [secondEngine] = engines(dataDir);
    if (secondEngine === undefined) {
      // dynalite runs inside the server: there is no engine to die on its own.
      expect(await second.stop()).toBe(0);
      return;
    }
    process.kill(secondEngine, 'SIGKILL');
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/the database engine ended on its own \(exit code -, signal SIGKILL\); start the server again/);
    expect(existsSync(join(dataDir, 'engine.lock'))).toBe(false);
  },
  PROCESS_TEST_MS,
);

test('the keys CLI explains its usage and refuses unknown commands', async () => {
  const help = await keysCli(undefined, '--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/create .*list.*revoke/s);
  const unknown = await keysCli(undefined, 'rotate');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('unknown command: rotate');
}, 60_000);
