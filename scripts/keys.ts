/**
 * Operator CLI for API keys: `npm run keys -- create|list|revoke`. Targets the local store (the one
 * `npm start` uses) by default, or a deployed stage with `--stage` (reads the stack's outputs; uses
 * the standard AWS credential chain).
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAccountId, issueApiKey } from '../lambda/shared/api-keys';
import { createDocumentClient } from '../lambda/shared/dynamodb-client';
import { DynamoApiKeyRepository, type ApiKeyRecord } from '../lambda/shared/repositories/api-key-repository';
import { AUTH_CACHE_TTL_MS } from '../lambda/shared/auth-settings';
import { isStageName, STAGES, stackNameOf, type StageName } from '../lib/stages';
import { readLiveEndpoint } from '../local/endpoint-file';
import { DataDirBusyError } from '../local/data-dir-lock';
import { LOCAL_TABLE_PREFIX, openLocalStore, storeEnvironment, type LocalStore } from '../local/local-store';
import { localTableNames } from '../local/tables';

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create [--account <id>] [--description <text>]  issue a new key; it is printed once, only its hash is stored
  list                                            list keys (id, account, created, revoked)
  revoke <keyId>                                  revoke a key; refused everywhere within ${AUTH_CACHE_TTL_MS / 1000} s

Options:
  --stage <${STAGES.join('|')}>  target that stage's deployed stack instead of the local store
  --data-dir <dir>            local store directory (default: PETSTORE_DATA_DIR or .petstore)
  --json                      machine-readable output
  --help`;

interface Target {
  readonly keys: DynamoApiKeyRepository;
  readonly where: string;
  close(): Promise<void>;
}

async function deployedTarget(stage: StageName): Promise<Target> {
  const stackName = stackNameOf(stage);
  const cloudFormation = new CloudFormationClient({});
  const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  const tableName = Stacks?.[0]?.Outputs?.find((output) => output.OutputKey === 'ApiKeysTableName')?.OutputValue;
  if (!tableName) throw new Error(`stack ${stackName} has no ApiKeysTableName output; deploy it first`);
  // Same region as the stack lookup (profile or AWS_REGION), so the table is found where the stack is.
  const db = createDocumentClient(undefined, await cloudFormation.config.region());
  cloudFormation.destroy();
  return {
    keys: new DynamoApiKeyRepository(db, tableName),
    where: `${stackName} (${tableName})`,
    close: () => {
      db.destroy();
      return Promise.resolve();
    },
  };
}

/** How long the keys CLI waits for a data directory that is busy (a server still starting, another command). */
const BUSY_WAIT_MS = 30_000;

/**
 * The engine of a running `npm start` when there is one; otherwise the store opened (and locked) for
 * this command alone. A server that is still starting holds the lock before it writes its endpoint,
 * so a busy directory is waited for a while rather than refused at once.
 */
async function localStore(dataDir: string): Promise<{ endpoint: string; store?: LocalStore }> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const running = readLiveEndpoint(dataDir);
    if (running) return { endpoint: running };
    try {
      const store = await openLocalStore({ dataDir, owner: 'npm run keys' });
      return { endpoint: store.endpoint, store };
    } catch (error) {
      if (!(error instanceof DataDirBusyError) || Date.now() > deadline) throw error;
      await new Promise((wake) => setTimeout(wake, 250));
    }
  }
}

async function localTarget(dataDir: string): Promise<Target> {
  const { endpoint, store } = await localStore(dataDir);
  const tableNames = store?.tableNames ?? localTableNames(LOCAL_TABLE_PREFIX);
  // The local engines accept any credentials, but the SDK needs some to sign with.
  Object.assign(process.env, storeEnvironment(endpoint, tableNames));
  const db = createDocumentClient(endpoint);
  return {
    keys: new DynamoApiKeyRepository(db, tableNames.apiKeys),
    where: `${store ? 'local store, ' : 'running local server, '}${dataDir}`,
    close: async () => {
      db.destroy();
      await store?.stop();
    },
  };
}

const describeKey = (record: ApiKeyRecord): string =>
  `${record.keyId}  account=${record.accountId}  created=${record.createdAt}${record.revokedAt ? `  revoked=${record.revokedAt}` : ''}${record.description ? `  "${record.description}"` : ''}`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      description: { type: 'string' },
      stage: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!['create', 'list', 'revoke'].includes(command)) {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  if (command === 'revoke' && rest.length !== 1) {
    console.error('revoke needs exactly one key id (see `list`)');
    return 2;
  }
  if (values.stage !== undefined && !isStageName(values.stage)) {
    console.error(`--stage must be one of ${STAGES.join(', ')}`);
    return 2;
  }
  const target = values.stage
    ? await deployedTarget(values.stage)
    : await localTarget(resolve(values['data-dir'] ?? process.env.PETSTORE_DATA_DIR ?? '.petstore'));
  try {
    const print = (json: unknown, text: string): void => console.log(values.json ? JSON.stringify(json) : text);
    if (command === 'create') {
      const issued = issueApiKey({
        accountId: values.account ?? generateAccountId(),
        ...(values.description ? { description: values.description } : {}),
      });
      await target.keys.create(issued.record);
      const { keyHash: _hash, ...shown } = issued.record;
      print(
        { key: issued.key, ...shown },
        `Created ${issued.record.keyId} for ${issued.record.accountId} in ${target.where}.\nAPI key (shown once, store it now):\n${issued.key}`,
      );
    } else if (command === 'list') {
      const records = (await target.keys.list()).map(({ keyHash: _hash, ...shown }) => shown);
      print(
        records,
        records.length === 0 ? `No keys in ${target.where}.` : records.map((record) => describeKey({ ...record, keyHash: '' })).join('\n'),
      );
    } else {
      const keyId = rest[0] as string;
      const revoked = await target.keys.revoke(keyId, new Date());
      if (!revoked) {
        console.error(`no key ${keyId} in ${target.where}`);
        return 1;
      }
      const { keyHash: _hash, ...shown } = revoked;
      print(shown, `Revoked ${keyId} at ${revoked.revokedAt ?? ''}; callers using it get 401 within ${AUTH_CACHE_TTL_MS / 1000} s.`);
    }
    return 0;
  } finally {
    await target.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
