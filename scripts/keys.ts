/**
 * `npm run keys -- create|list|revoke`: API keys of the local store (`npm start`'s) or of a deployed stage (`--stage`).
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAccountId } from '#auth/api-keys';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoAccountKeys } from '#data/repositories/account-keys';
import type { ApiKeyRecord } from '#auth/key-record';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, MAX_KEYS_CREATED_PER_DAY } from '#contract/account-limits';
import { accountOfEmail, localAccountOfEmail } from '#local/identity/account-lookup';
import { AUTH_CACHE_TTL_MS } from '#auth/settings';
import { isStageName, STAGES, stackNameOf, type StageName } from '#shared/stages';
import {
  clientConfigOf,
  outputOf,
  runOperatorCommand,
  STAGE_REQUIRED,
  stackOutputs,
  stageTarget,
  TARGET_ARGS,
  TARGET_USAGE,
  type AwsTargetOptions,
} from './aws-target';
import { withCallDeadline } from './aws-call-deadline';
import { readLiveEndpoint } from '#local/engine/endpoint-file';
import { DataDirBusyError } from '#local/engine/data-dir-lock';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { LOCAL_TABLE_PREFIX, openLocalStore, type LocalStore } from '#local/engine/local-store';
import { localTableNames } from '#local/engine/tables';

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create [--email <address> | --account <id>] [--description <text>]
                                                  issue a new key; it is printed once, only its hash is stored.
                                                  --email: for the developer-portal user with that address
                                                  (it shows up in their portal); at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys per account
  list                                            list keys (id, account, created, revoked)
  revoke <keyId>                                  revoke a key; refused everywhere within ${AUTH_CACHE_TTL_MS / 1000} s

Options:
  --stage <${STAGES.join('|')}>  target that stage's deployed stack instead of the local store
${TARGET_USAGE} (with --stage)
  --data-dir <dir>            local store directory (default: PETSTORE_DATA_DIR or .petstore)
  --json                      machine-readable output
  --help`;

/** `accountKeys`: under the portal's cap; `accountOf`: a portal user's account (`sub`) by email address. */
interface Target {
  readonly keys: DynamoApiKeyRepository;
  readonly accountKeys: DynamoAccountKeys;
  accountOf(email: string): Promise<string | undefined>;
  readonly where: string;
  close(): Promise<void>;
}

async function deployedTarget(stage: StageName, options: AwsTargetOptions): Promise<Target> {
  const stackName = stackNameOf(stage);
  const aws = await stageTarget(stage, options);
  const outputs = await stackOutputs(stage, aws);
  const output = (key: string): string => outputOf(outputs, key);
  const tableName = output('ApiKeysTableName');
  const db = withCallDeadline(createDocumentClient(undefined, aws.region), aws.region);
  const keys = new DynamoApiKeyRepository(db, tableName);
  const cognito = withCallDeadline(new CognitoIdentityProviderClient(clientConfigOf(aws)), aws.region);
  return {
    keys,
    accountKeys: new DynamoAccountKeys(db, keys, output('AccountsTableName')),
    accountOf: (email) => accountOfEmail(cognito, output('UserPoolId'), email),
    where: `${stackName} (${tableName})`,
    close: () => {
      db.destroy();
      cognito.destroy();
      return Promise.resolve();
    },
  };
}

const BUSY_WAIT_MS = 30_000;

/** A running `npm start`'s engine, else the store opened (and locked) for this command; a starting server's lock is waited for. */
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
  Object.assign(process.env, localFunctionEnvironment({ endpoint, tableNames }));
  const db = createDocumentClient(endpoint);
  const keys = new DynamoApiKeyRepository(db, tableNames.apiKeys);
  return {
    keys,
    accountKeys: new DynamoAccountKeys(db, keys, tableNames.accounts),
    accountOf: (email) => localAccountOfEmail(dataDir, email),
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
      email: { type: 'string' },
      description: { type: 'string' },
      stage: { type: 'string' },
      ...TARGET_ARGS,
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
  if (values.email !== undefined && values.account !== undefined) {
    console.error('give --email or --account, not both');
    return 2;
  }
  if (values.stage !== undefined && !isStageName(values.stage)) {
    console.error(STAGE_REQUIRED);
    return 2;
  }
  if ((values.region !== undefined || values.profile !== undefined) && values.stage === undefined) {
    console.error('--region and --profile need --stage (they pick the deployed stack)');
    return 2;
  }
  const target = values.stage
    ? await deployedTarget(values.stage, values)
    : await localTarget(resolve(values['data-dir'] ?? process.env.PETSTORE_DATA_DIR ?? '.petstore'));
  try {
    const print = (json: unknown, text: string): void => console.log(values.json ? JSON.stringify(json) : text);
    if (command === 'create') {
      let accountId = values.account ?? generateAccountId();
      if (values.email !== undefined) {
        const found = await target.accountOf(values.email);
        if (!found) {
          console.error(`no developer-portal user with the email address ${values.email} in ${target.where}`);
          return 1;
        }
        accountId = found;
      }
      const issued = await target.accountKeys.create(accountId, values.description ?? '', new Date());
      if (typeof issued === 'string') {
        const why = {
          closed: `account ${accountId} was deleted`,
          limit_reached: `account ${accountId} already has ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys; revoke one first`,
          daily_limit_reached: `account ${accountId} already created ${MAX_KEYS_CREATED_PER_DAY} keys today (UTC); try again tomorrow`,
        };
        console.error(why[issued]);
        return 1;
      }
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

runOperatorCommand(run);
