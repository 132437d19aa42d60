/**
 * `npm start`: the whole API on this machine. Embedded DynamoDB (data in PETSTORE_DATA_DIR), the
 * tables of lib/tables.ts, a dev API key, and the gateway emulation on 127.0.0.1:PORT.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createDocumentClient } from '../lambda/shared/dynamodb-client';
import { DynamoApiKeyRepository } from '../lambda/shared/repositories/api-key-repository';
import { noteRunningCognito } from './account-lookup';
import { startLocalAccounts } from './accounts';
import { localCorsOrigins } from './cors';
import { ensureDevKey } from './dev-key';
import { readLiveEndpoint, removeEndpoint, writeEndpoint } from './endpoint-file';
import { loadFunctions } from './functions';
import { openLocalStore } from './local-store';
import { startLocalApi } from './server';

async function main(): Promise<void> {
  const dataDir = resolve(process.env.PETSTORE_DATA_DIR ?? '.petstore');
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a TCP port number, got ${process.env.PORT}`);
  const corsOrigins = localCorsOrigins(process.env.PETSTORE_CORS_ORIGINS);
  mkdirSync(dataDir, { recursive: true });
  if (readLiveEndpoint(dataDir)) throw new Error(`another local server is already using ${dataDir}; stop it or set PETSTORE_DATA_DIR`);

  const store = await openLocalStore({ dataDir });
  Object.assign(process.env, store.environment);
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  console.log(
    `DynamoDB engine: ${store.engine === 'dynamodb-local' ? 'Amazon DynamoDB Local (Java)' : 'dynalite (embedded, pure JS)'} at ${store.endpoint}, data in ${dataDir}`,
  );

  const db = createDocumentClient(store.endpoint);
  const devKey = await ensureDevKey(new DynamoApiKeyRepository(db, store.tableNames.apiKeys), dataDir, process.env.PETSTORE_DEV_API_KEY);
  db.destroy();

  // The developer portal's user pool (cognito-local): no email is sent, the codes are printed here.
  const accounts = await startLocalAccounts({
    dataDir,
    onCode: (email, code) => console.log(`Confirmation code for ${email}: ${code}`),
  });
  Object.assign(process.env, accounts.environment);
  noteRunningCognito(dataDir, accounts.cognito.endpoint, accounts.cognito.userPoolId);

  const api = await startLocalApi({
    functions: await loadFunctions(),
    accountAuthorizer: accounts.accountAuthorizer,
    portal: accounts.portal,
    port,
    ...(corsOrigins ? { corsOrigins } : {}),
    onResponse: ({ method, path, status, ms }) => console.log(`${method} ${path} ${status} ${ms.toFixed(1)} ms`),
  });
  writeEndpoint(dataDir, store.endpoint);

  if (devKey.replaced) console.log(`${devKey.replaced}: issued a new dev key.`);
  console.log(`Dev API key (${devKey.source}): ${devKey.key}`);
  console.log(`Messages base URL: ${api.origin}`);
  console.log(`Pets base URL: ${api.petsBaseUrl}`);
  if (corsOrigins) console.log(`CORS: browsers may call from ${corsOrigins.join(', ')}`);
  console.log(`Try: curl -H 'Authorization: Bearer ${devKey.key}' ${api.petsBaseUrl}/pets`);
  console.log(`Developer portal (sign up, get your own key): ${api.origin}/portal/`);
  console.log(`Account base URL: ${api.origin} (Cognito emulator at ${accounts.cognito.endpoint})`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests and stopping`);
    void api
      .close()
      .then(() => accounts.stop())
      .then(() => store.stop())
      .then(() => removeEndpoint(dataDir))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
