/**
 * `npm run smoke`: the checks of scripts/smoke/checks.ts against a stage (`--stage`: its outputs, and a temporary key
 * issued into its table and revoked at the end), any address with your own key (`--pets-base-url … --key …`), or the
 * stage as `cdk synth` left it, served on this machine (`--rehearse`, local/dev/rehearsal.ts). Exits 1 when a check fails.
 */
import { parseArgs } from 'node:util';
import { issueApiKey } from '#auth/api-keys';
import { AUTH_CACHE_TTL_MS } from '#auth/settings';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository, type ApiKeyRepository } from '#data/repositories/api-key-repository';
import { isStageName, stackNameOf } from '#shared/stages';
import { startRehearsal } from '#local/dev/rehearsal';
import { outputOf, runOperatorCommand, STAGE_REQUIRED, stackOutputs, stageTarget, TARGET_ARGS, type AwsTargetOptions } from './aws-target';
import { withCallDeadline } from './aws-call-deadline';
import { checkRevokedKeyRefused, runSmokeChecks, type CheckResult, type SmokeTarget } from './smoke/checks';

const SMOKE_ACCOUNT_ID = 'acct_smoke';
/** Past the authorizer's cache window, with a margin for clocks and in-flight lookups. */
const REVOCATION_WAIT_MS = AUTH_CACHE_TTL_MS + 5_000;

/** `corsOrigin`: one the stage allows, unless --origin names another; `revoke`: absent when the key is not ours. */
interface Session {
  readonly target: Omit<SmokeTarget, 'readOnly' | 'corsOrigin'>;
  readonly corsOrigin?: string;
  readonly where: string;
  readonly revoke?: () => Promise<void>;
  /** Waits until no authorizer instance can still admit a key revoked now. */
  readonly outwaitCache?: () => Promise<void>;
  /** Checks only this session can make (the rehearsal's: the pre-traffic hook of a fresh stage). */
  readonly moreChecks?: () => Promise<CheckResult[]>;
  close(): Promise<void>;
}

/** A temporary key of SMOKE_ACCOUNT_ID, and how to revoke it. */
async function temporaryKey(keys: ApiKeyRepository): Promise<{ key: string; revoke: () => Promise<void> }> {
  const issued = issueApiKey({ accountId: SMOKE_ACCOUNT_ID, description: `npm run smoke ${new Date().toISOString()}` });
  await keys.create(issued.record);
  return { key: issued.key, revoke: () => keys.revoke(issued.record.keyId, new Date()).then(() => undefined) };
}

async function stageSession(stage: string, options: AwsTargetOptions): Promise<Session> {
  if (!isStageName(stage)) throw new Error(STAGE_REQUIRED);
  const stackName = stackNameOf(stage);
  // The region cdk deploy used, found the way the CDK CLI finds it; on stdout, with the checks' report.
  const aws = await stageTarget(stage, options, (line) => console.log(line));
  const outputs = await stackOutputs(stage, aws);
  const output = (key: string): string => outputOf(outputs, key);
  const db = withCallDeadline(createDocumentClient(undefined, aws.region), aws.region);
  const { key, revoke } = await temporaryKey(new DynamoApiKeyRepository(db, output('ApiKeysTableName')));
  return {
    target: { petsBaseUrl: output('PetsBaseUrl'), messagesBaseUrl: output('MessagesBaseUrl'), key },
    // Every deployed stage allows its developer portal's origin (docs/portal.md).
    corsOrigin: new URL(output('PortalUrl')).origin,
    where: `${stackName} (${output('PetsBaseUrl')})`,
    revoke,
    outwaitCache: async () => {
      console.log(`(revoked the temporary key; waiting ${REVOCATION_WAIT_MS / 1000} s for the authorizer's cache window)`);
      await new Promise((wake) => setTimeout(wake, REVOCATION_WAIT_MS));
    },
    close: () => {
      db.destroy();
      return Promise.resolve();
    },
  };
}

async function rehearsalSession(stage: string, assemblyDir: string): Promise<Session> {
  if (!isStageName(stage)) throw new Error(STAGE_REQUIRED);
  // A browser origin the rehearsal allows, standing in for the stage's developer portal.
  const corsOrigin = 'http://localhost:5173';
  const rehearsal = await startRehearsal(stage, assemblyDir, [corsOrigin]);
  Object.assign(process.env, rehearsal.environment);
  const db = createDocumentClient();
  const { key, revoke } = await temporaryKey(new DynamoApiKeyRepository(db, rehearsal.apiKeysTable));
  const { api } = rehearsal;
  return {
    target: { petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, key },
    corsOrigin,
    where: `the bundles of ${stackNameOf(stage)} from ${assemblyDir}, served at ${api.origin} (CORS for ${corsOrigin})`,
    revoke,
    // Lambda would retire the authorizer's instances, and their caches, in time: here that happens at once.
    outwaitCache: async () => {
      console.log("(revoked the temporary key; ended every function's sandbox, the authorizer's cache with it)");
      await rehearsal.recycle();
    },
    moreChecks: async () => {
      const name = "a fresh stage's pre-traffic hook passes, its check minting its own key";
      const { verdict, keyKept } = await rehearsal.preTraffic();
      const passed = verdict === 'Succeeded' && keyKept;
      return [{ name, outcome: passed ? 'pass' : 'fail', detail: `verdict ${verdict}; ${keyKept ? 'a key' : 'no key'} in its secret` }];
    },
    close: async () => {
      db.destroy();
      await rehearsal.close();
    },
  };
}

const SYMBOLS: Record<CheckResult['outcome'], string> = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' };
const line = (result: CheckResult): string => `${SYMBOLS[result.outcome]}  ${result.name}${result.detail ? ` — ${result.detail}` : ''}`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      ...TARGET_ARGS,
      rehearse: { type: 'boolean', default: false },
      assembly: { type: 'string', default: 'cdk.out' },
      'pets-base-url': { type: 'string' },
      'messages-base-url': { type: 'string' },
      key: { type: 'string' },
      origin: { type: 'string' },
      'read-only': { type: 'boolean', default: false },
      'no-revocation-wait': { type: 'boolean', default: false },
    },
  });
  if ((values.stage === undefined) === (values['pets-base-url'] === undefined)) {
    console.error('give either --stage <stage> or --pets-base-url … --messages-base-url … --key …');
    return 2;
  }
  if (values.stage === 'prod' && !values['read-only'] && !values.rehearse) {
    console.error('prod: add --read-only (the checks that store pets cannot undo them: the API deletes nothing)');
    return 2;
  }
  let session: Session;
  if (values.stage !== undefined && values.rehearse) session = await rehearsalSession(values.stage, values.assembly);
  else if (values.stage !== undefined) session = await stageSession(values.stage, values);
  else {
    const { 'pets-base-url': petsBaseUrl, 'messages-base-url': messagesBaseUrl, key } = values;
    if (!petsBaseUrl || !messagesBaseUrl || !key) {
      console.error('--pets-base-url needs --messages-base-url and --key');
      return 2;
    }
    session = { target: { petsBaseUrl, messagesBaseUrl, key }, where: petsBaseUrl, close: () => Promise.resolve() };
  }

  const results: CheckResult[] = [];
  try {
    console.log(`Smoke checks against ${session.where}${values['read-only'] ? ' (read-only)' : ''}`);
    const corsOrigin = values.origin ?? session.corsOrigin;
    const target: SmokeTarget = { ...session.target, readOnly: values['read-only'], ...(corsOrigin ? { corsOrigin } : {}) };
    const run = await runSmokeChecks(target, (result) => console.log(line(result)));
    results.push(...run.results);
    const revocation: CheckResult = session.revoke
      ? values['no-revocation-wait']
        ? {
            name: 'the revoked temporary key is refused',
            outcome: 'skip',
            detail: `--no-revocation-wait (the authorizer caches lookups for ${AUTH_CACHE_TTL_MS / 1000} s)`,
          }
        : await (async () => {
            await session.revoke?.();
            await session.outwaitCache?.();
            return checkRevokedKeyRefused(session.target.petsBaseUrl, session.target.key);
          })()
      : { name: 'the revoked temporary key is refused', outcome: 'skip', detail: 'the key was given (--key): not ours to revoke' };
    if (session.revoke && values['no-revocation-wait']) await session.revoke();
    results.push(revocation);
    console.log(line(revocation));
    for (const result of (await session.moreChecks?.()) ?? []) {
      results.push(result);
      console.log(line(result));
    }
    console.log(
      `Created: ${run.created.pets.length} pets (${run.created.pets.join(', ') || 'none'}), ${run.created.messages.length} messages (${run.created.messages.join(', ') || 'none'})${session.revoke ? `, one temporary key of ${SMOKE_ACCOUNT_ID} (revoked)` : ''}`,
    );
  } finally {
    await session.close();
  }
  const count = (outcome: CheckResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  console.log(`Smoke: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`);
  return count('fail') > 0 ? 1 : 0;
}

runOperatorCommand(main);
