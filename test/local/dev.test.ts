/**
 * `npm run dev` (local/dev/start.ts --watch) as a developer uses it, on a copy of the project (this suite's
 * own files are never edited): a handler edited in the copy is served once the reload line is printed;
 * pets and portal users made before are still there; requests sent all through the reloads all succeed;
 * code that does not load is reported while the previous code keeps serving, and fixing it reloads.
 * Save-to-served latency is printed for information (`npm run bench` holds it against its budget).
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueApiKey } from '#auth/api-keys';
import { cognitoCall } from '../support/cognito-users';
import { killLeftoverServers, PROJECT_ROOT as ROOT, startLocalServerProcess, type LocalServerProcess } from '../support/local-process';

/** A hang guard for a test that starts a server and reloads it three times, not a budget. */
const DEV_TEST_MS = 180_000;
/** What `npm start` reads of the project tree; node_modules is linked, not copied. */
const PROJECT_PARTS = ['lambda', 'shared', 'config', 'lib', 'local', 'portal', 'docs', 'package.json', 'tsconfig.json'];
const HANDLER = 'lambda/handlers/list-pets.ts';
const UNEDITED = 'return jsonResponse(200, page.pets);';
const edited = (version: string): string => `return jsonResponse(200, page.pets, { 'x-dev-edit': '${version}' });`;

const directories: string[] = [];
const newDirectory = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  directories.push(dir);
  return dir;
};
afterAll(async () => {
  await killLeftoverServers();
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

function copyProject(): string {
  const copy = newDirectory('petstore-dev-tree-');
  for (const part of PROJECT_PARTS) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

interface Answer {
  readonly at: number;
  readonly status: number | string;
  readonly edit: string | null;
}

interface Traffic {
  readonly answers: Answer[];
  /** Resolves once an answer carries this edit (or failed). */
  served(edit: string): Promise<void>;
  stop(): Promise<Answer[]>;
}

/** GET /v1/pets from two clients, back to back, until stopped: every answer (or network error) with the time it came. */
function keepListing(server: LocalServerProcess, key: string): Traffic {
  const answers: Answer[] = [];
  const waiting = new Set<() => void>();
  let stopped = false;
  const client = async (): Promise<void> => {
    while (!stopped) {
      try {
        const response = await fetch(`${server.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } });
        await response.arrayBuffer();
        answers.push({ at: performance.now(), status: response.status, edit: response.headers.get('x-dev-edit') });
      } catch (error) {
        answers.push({ at: performance.now(), status: String(error), edit: null });
      }
      for (const check of waiting) check();
    }
  };
  const clients = [client(), client()];
  return {
    answers,
    served: (edit) =>
      new Promise((done) => {
        const check = (): void => {
          if (!answers.some((answer) => answer.edit === edit || answer.status !== 200)) return;
          waiting.delete(check);
          done();
        };
        waiting.add(check);
        check();
      }),
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
      return answers;
    },
  };
}

/** The edit's header on one fresh request. */
const editServed = async (server: LocalServerProcess, key: string): Promise<string | null> =>
  (await fetch(`${server.petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } })).headers.get('x-dev-edit');

test(
  'npm run dev reloads an edited handler with the data and users kept, serving every request meanwhile; code that does not load is reported and the old code keeps serving',
  async () => {
    const copy = copyProject();
    const handlerFile = join(copy, HANDLER);
    const original = readFileSync(handlerFile, 'utf8');
    expect(original).toContain(UNEDITED);
    const key = issueApiKey({ accountId: 'acct_dev' }).key;
    const server = await startLocalServerProcess(
      { PETSTORE_DATA_DIR: newDirectory('petstore-dev-data-'), PETSTORE_DEV_API_KEY: key, PETSTORE_THROTTLE: 'off' },
      { cwd: copy, args: ['--watch'] },
    );
    expect(server.output()).toContain('Reloading: the functions reload when lambda/ changes');

    const reloaded = /Reloaded the functions \(lambda\/handlers\/list-pets\.ts changed\) in (\d+) ms/;
    const latencies: string[] = [];
    /**
     * Saves the handler and waits for the line the server prints about it and, for an edit, until the
     * edit is served: the time from save to then is the latency. Every request sent meanwhile must succeed.
     */
    const save = async (content: string, line: RegExp, edit?: string): Promise<void> => {
      const traffic = keepListing(server, key);
      while (traffic.answers.length < 2) await new Promise((tick) => setImmediate(tick));
      const from = server.output().length;
      const savedAt = performance.now();
      writeFileSync(handlerFile, content);
      await server.waitForOutput(line, from);
      if (edit) await traffic.served(edit);
      const answers = await traffic.stop();
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      const first = answers.find((answer) => edit && answer.edit === edit);
      const byOldCode = answers.filter((answer) => answer.at > savedAt && answer.at < (first?.at ?? 0)).length;
      if (first) latencies.push(`${Math.round(first.at - savedAt)} ms (${byOldCode} requests served by the old code meanwhile)`);
    };

    // Before the edit: a pet and a confirmed portal user.
    const created = await fetch(`${server.petsBaseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', categoryId: 3 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    const [, cognitoEndpoint = ''] = await server.waitForOutput(/Cognito emulator at (http:\/\/127\.0\.0\.1:\d+\/)/);
    const { clientId } = (await (await fetch(`${server.origin}/portal/config.json`)).json()) as { clientId: string };
    const user = { Username: 'dev-user@example.com', Password: 'Correct-Horse-42' };
    expect((await cognitoCall(cognitoEndpoint, 'SignUp', { ClientId: clientId, ...user })).status).toBe(200);
    const [, code] = await server.waitForOutput(/Confirmation code for dev-user@example\.com: (\d{6})/);
    await cognitoCall(cognitoEndpoint, 'ConfirmSignUp', { ClientId: clientId, Username: user.Username, ConfirmationCode: code });
    expect(await editServed(server, key)).toBeNull();

    // 1. The edit: served once the reload line is out.
    await save(original.replace(UNEDITED, edited('1')), reloaded, '1');
    expect(await editServed(server, key)).toBe('1');

    // 2. The data and the users are kept (the engine and cognito-local never restart); account functions work in the new code.
    const fetched = await fetch(`${server.petsBaseUrl}/pets/${pet.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(await fetched.json()).toEqual({ id: pet.id, name: 'Kept', categoryId: 3, status: 'available' });
    const signedIn = await cognitoCall(cognitoEndpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: user.Username, PASSWORD: user.Password },
    });
    expect(signedIn.status).toBe(200);
    const accessToken = (signedIn.json.AuthenticationResult as { AccessToken: string }).AccessToken;
    const keys = await fetch(`${server.origin}/account/keys`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(keys.status).toBe(200);

    // 3. Code that does not load: said so, and the previous code keeps serving; fixing it reloads.
    await save(
      `${original.replace(UNEDITED, edited('2'))}\nthis is not TypeScript(\n`,
      /The functions did not reload \(lambda\/handlers\/list-pets\.ts changed\): still serving the previous code\. .*\n.*list-pets\.ts:\d+:\d+: ERROR/,
    );
    expect(await editServed(server, key)).toBe('1');
    await save(original.replace(UNEDITED, edited('3')), reloaded, '3');
    expect(await editServed(server, key)).toBe('3');

    // 4. local/ is the emulator itself: run without the launcher, a change there is only reported.
    const from = server.output().length;
    appendFileSync(join(copy, 'local/gateway/cors.ts'), '\n');
    await server.waitForOutput(/local\/gateway\/cors\.ts changed: the emulator itself reloads only on restart/, from);
    // So is shared/: the routes, tables and gateway answers the emulator was started with.
    const fromShared = server.output().length;
    appendFileSync(join(copy, 'shared/gateway-answers.ts'), '\n');
    await server.waitForOutput(/shared\/gateway-answers\.ts changed: the emulator itself reloads only on restart/, fromShared);

    const loads = [...server.output().matchAll(new RegExp(reloaded, 'g'))].map((line) => `${line[1]} ms`);
    console.log(
      `npm run dev, save → first request served by the new code: ${latencies.join(', ')}; loading the functions: ${loads.join(', ')}`,
    );
    expect(await server.stop()).toBe(0);
  },
  DEV_TEST_MS,
);

test(
  'through the launcher (as npm run dev runs it), a change under local/ restarts the whole server, with the data kept',
  async () => {
    const copy = copyProject();
    const key = issueApiKey({ accountId: 'acct_dev' }).key;
    const server = await startLocalServerProcess(
      { PETSTORE_DATA_DIR: newDirectory('petstore-dev-data-'), PETSTORE_DEV_API_KEY: key },
      { cwd: copy, args: ['--watch'], viaLauncher: true },
    );
    expect(server.output()).toContain('the server restarts when local/ or shared/ changes');
    const created = await fetch(`${server.petsBaseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', categoryId: 3 }),
    });
    const pet = (await created.json()) as { id: number };

    const from = server.output().length;
    appendFileSync(join(copy, 'local/gateway/cors.ts'), '\n');
    await server.waitForOutput(/local\/gateway\/cors\.ts changed: restarting the emulator \(data and users are kept\): stopping/, from);
    // The same launcher starts it again: a new banner (on a new port here, since the test asks for any free one).
    const [, petsBaseUrl] = await server.waitForOutput(/Pets base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)\n/, from);
    const fetched = await fetch(`${petsBaseUrl}/pets/${pet.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(await fetched.json()).toEqual({ id: pet.id, name: 'Kept', categoryId: 3, status: 'available' });

    // The launcher passes SIGTERM on to the restarted server and ends with it.
    expect(await server.stop()).toBe(0);
  },
  DEV_TEST_MS,
);
