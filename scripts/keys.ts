/**
 * `npm run keys -- create|list|revoke`: API keys of the local store (`npm start`'s) or of a deployed stage (`--stage`);
 * `rotate-stage-check`: a new key for a stage's stage check, in its secret, the one it replaces revoked.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAccountId } from '#auth/api-keys';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoAccountKeys } from '#data/repositories/account-keys';
import type { ApiKeyRecord } from '#auth/key-record';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { rotateStageCheckKey, secretsManagerKeySecret, type KeySecret } from '#data/stage-check-key';
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
  rotate-stage-check --stage <staging|prod>       give the stage check a new key (kept in its secret, never printed)
                                                  and revoke the one it had

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
  /** A deployed stage's: the secret its stage check calls with. */
  stageCheckSecret?(): KeySecret;
  readonly where: string;
  /** When the database does not answer: which one it is, and what to check. */
  readonly unanswered: string;
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
  const secrets = withCallDeadline(new SecretsManagerClient(clientConfigOf(aws)), aws.region);
  return {
    keys,
    accountKeys: new DynamoAccountKeys(db, keys, output('AccountsTableName')),
    accountOf: (email) => accountOfEmail(cognito, output('UserPoolId'), email),
    stageCheckSecret: () => secretsManagerKeySecret(secrets, output('StageCheckKeySecret')),
    where: `${stackName} (${tableName})`,
    unanswered:
      `DynamoDB in ${aws.region} (https://dynamodb.${aws.region}.amazonaws.com) did not answer. Check this machine's way out: ` +
      "its network, a VPN or firewall, a proxy (HTTPS_PROXY), and that --region is the stack's.",
    close: () => {
      db.destroy();
      cognito.destroy();
      secrets.destroy();
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
    unanswered: store
      ? `The local DynamoDB this command started at ${endpoint} for ${dataDir} did not answer: check the machine's load and free disk, then run it again.`
      : `DynamoDB at ${endpoint}, the engine of the \`npm start\` that holds ${dataDir}, did not answer. Check that server: ` +
        'is it stopped (Ctrl-Z), stuck or overloaded? Restart it (Ctrl-C, then `npm start`) and run this command again.',
    close: async () => {
      db.destroy();
      await store?.stop();
    },
  };
}

/** No answer from the database at all (timed out, refused, cut), as against an answer refusing the call. */
const unanswered = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'TimeoutError' ||
    ('$metadata' in error && (error.$metadata as { httpStatusCode?: number }).httpStatusCode === undefined));

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
  if (!['create', 'list', 'revoke', 'rotate-stage-check'].includes(command)) {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  if (command === 'revoke' && rest.length !== 1) {
    console.error('revoke needs exactly one key id (see `list`)');
    return 2;
  }
  if (command === 'rotate-stage-check' && values.stage === undefined) {
    console.error('rotate-stage-check needs --stage: the local store has no stage check');
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
    return await runCommand(target, command, rest, values);
  } catch (error) {
    throw unanswered(error) ? new Error(`${target.unanswered}\n(the SDK said: ${(error as Error).message})`) : error;
  } finally {
    await target.close();
  }
}

async function runCommand(
  target: Target,
  command: string,
  rest: string[],
  values: { account?: string | undefined; email?: string | undefined; description?: string | undefined; json: boolean },
): Promise<number> {
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
  } else if (command === 'rotate-stage-check') {
    const secret = target.stageCheckSecret?.();
    if (!secret) throw new Error('rotate-stage-check needs --stage');
    const rotated = await rotateStageCheckKey(secret, target.keys);
    const revoked = rotated.revokedKeyId
      ? `; ${rotated.revokedKeyId} is revoked, refused everywhere within ${AUTH_CACHE_TTL_MS / 1000} s`
      : '; its secret held no key before';
    print(rotated, `The stage check of ${target.where} now calls with ${rotated.keyId}, kept in its secret${revoked}.`);
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
}

runOperatorCommand(run);
