/** `npm start` (`npm run dev` with --watch): the whole service on this machine, data in PETSTORE_DATA_DIR. */
import { join, resolve } from 'node:path';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { noteRunningCognito } from '#local/identity/account-lookup';
import { startLocalAccounts, type LocalAccounts } from '#local/identity/accounts';
import { localCorsOrigins } from '#local/gateway/cors';
import { DEV_KEY_FILE, ensureDevKey, type DevKey } from '#local/identity/dev-key';
import { removeEndpoint, writeEndpoint } from '#local/engine/endpoint-file';
import { localFunctionEnvironment } from './function-environment';
import { openLocalStore, type LocalStore } from '#local/engine/local-store';
import { currentParentPid, isAlive } from '#local/engine/processes';
import { reloadingFunctions } from './reloading-functions';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import { describeThrottle, throttleFromEnvironment } from '#local/gateway/throttle';

const PARENT_POLL_MS = 500;
const WATCH = process.argv.slice(2).includes('--watch');
/** scripts/launch.mjs's `<exit code>:<its pid>`: that code restarts this program, if the launcher is the parent. */
const RESTART_EXIT_CODE = ((): number | undefined => {
  const [code, launcher] = (process.env.PETSTORE_RESTART ?? '').split(':').map(Number);
  return code !== undefined && launcher === process.ppid ? code : undefined;
})();
/** A signal sent to the whole process group arrives twice: directly, and passed on by the launcher. */
const SAME_SIGNAL_MS = 1_000;

/** The key is printed once, where it was created or read from disk; a key given in the environment is never echoed. */
function devKeyLines({ key, source }: DevKey, dataDir: string, petsBaseUrl: string): string[] {
  const fromEnv = source === 'PETSTORE_DEV_API_KEY';
  return [
    fromEnv ? 'Dev API key: the one in PETSTORE_DEV_API_KEY' : `Dev API key (${source}): ${key}`,
    `Try: curl -H "Authorization: Bearer ${fromEnv ? '$PETSTORE_DEV_API_KEY' : `$(cat ${join(dataDir, DEV_KEY_FILE)})`}" ${petsBaseUrl}/pets`,
  ];
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.PETSTORE_DATA_DIR ?? '.petstore');
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a TCP port number, got ${process.env.PORT}`);
  const throttle = throttleFromEnvironment();
  const corsOrigins = localCorsOrigins(process.env.PETSTORE_CORS_ORIGINS);

  const running: { store?: LocalStore; accounts?: LocalAccounts; api?: LocalApi } = {};
  let stopping: { reason: string; at: number } | undefined;
  const stop = (reason: string, exitCode: number): void => {
    if (stopping) {
      if (reason === stopping.reason && performance.now() - stopping.at < SAME_SIGNAL_MS) return;
      console.log(`${reason}: stopping now, without waiting`);
      process.exit(exitCode === 0 ? 1 : exitCode);
    }
    stopping = { reason, at: performance.now() };
    console.log(`${reason}: stopping`);
    void (async () => {
      await running.api?.close();
      if (running.api) removeEndpoint(dataDir);
      await running.accounts?.stop();
      await running.store?.stop();
    })().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  // For supervisors and tests: end with the process that started this one, even if it was killed.
  if (process.env.PETSTORE_EXIT_WITH_PARENT === '1') {
    const parent = process.ppid;
    setInterval(() => {
      if ((currentParentPid() ?? parent) !== parent || !isAlive(parent)) stop(`parent process ${parent} ended`, 0);
    }, PARENT_POLL_MS).unref();
  }

  const store = await openLocalStore({ dataDir, owner: WATCH ? 'npm run dev' : 'npm start' });
  running.store = store;
  // Nothing nurses a dead engine back: the server stops, saying why, and a developer starts it again.
  void store.died.then((how) => stop(`the database engine ended on its own (${how.split('\n')[0] ?? how}); start the server again`, 1));
  console.log(
    `DynamoDB engine: ${store.engine === 'dynamodb-local' ? 'Amazon DynamoDB Local (Java)' : 'dynalite (embedded, pure JS)'} at ${store.endpoint}, data in ${dataDir}`,
  );

  const accounts = await startLocalAccounts({
    dataDir,
    onCode: (email, code) => console.log(`Confirmation code for ${email}: ${code}`),
  });
  running.accounts = accounts;
  // Like Lambda, the functions read their environment when their modules load: set it once, before they load.
  Object.assign(
    process.env,
    localFunctionEnvironment({ endpoint: store.endpoint, tableNames: store.tableNames, cognito: accounts.cognito }),
  );
  noteRunningCognito(dataDir, accounts.cognito.endpoint, accounts.cognito.userPoolId);

  const db = createDocumentClient(store.endpoint);
  const devKey = await ensureDevKey(new DynamoApiKeyRepository(db, store.tableNames.apiKeys), dataDir, process.env.PETSTORE_DEV_API_KEY);
  db.destroy();

  const api = await startLocalApi({
    functions: await reloadingFunctions({
      watch: WATCH,
      onEmulatorChange:
        RESTART_EXIT_CODE === undefined
          ? undefined
          : (files) => stop(`${files.join(', ')} changed: restarting the emulator (data and users are kept)`, RESTART_EXIT_CODE),
    }),
    accountAuthorizer: accounts.accountAuthorizer,
    portal: accounts.portal,
    port,
    ...(corsOrigins ? { corsOrigins } : {}),
    ...(throttle ? { throttle } : {}),
    onResponse: ({ method, path, status, ms }) => console.log(`${method} ${path} ${status} ${ms.toFixed(1)} ms`),
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(
      `port ${port} on 127.0.0.1 is taken, by another npm start or another program: stop it, or start on another port with PORT=<port> (PORT=0 picks a free one)`,
    );
  });
  running.api = api;
  writeEndpoint(dataDir, store.endpoint);

  // One write: whoever waits for a line of it (a script, a test) then has all of it.
  console.log(
    [
      ...devKeyLines(devKey, dataDir, api.petsBaseUrl),
      throttle ? `Throttle: ${describeThrottle(throttle)}, as the deployed stage (PETSTORE_THROTTLE=off turns it off)` : 'Throttle: off',
      `Messages base URL: ${api.origin}`,
      `Pets base URL: ${api.petsBaseUrl}`,
      ...(corsOrigins ? [`CORS: browsers may call from ${corsOrigins.join(', ')}`] : []),
      `Developer portal (sign up, get your own key): ${api.origin}/portal/`,
      `API reference: ${api.origin}/portal/reference.html`,
      `Account base URL: ${api.origin} (Cognito emulator at ${accounts.cognito.endpoint})`,
      ...(WATCH
        ? [
            `Reloading: the functions reload when lambda/ changes; ${RESTART_EXIT_CODE === undefined ? 'a change under local/ or shared/ needs a restart' : 'the server restarts when local/ or shared/ changes'}`,
          ]
        : []),
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
