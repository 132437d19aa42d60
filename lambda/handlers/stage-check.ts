/**
 * The stage check (lib/petstore-stage-check.ts): the smoke checks of `npm run smoke`, in Lambda, with the check's own key.
 * On its schedule, read-only through the public base URLs; a failure fails the invocation, which its alarm counts. As
 * CodeDeploy's BeforeAllowTraffic hook, against the versions the deploy published (CodeDeploy sends only the ids of the
 * deployment and of the hook's run; CloudFormation writes the versions into the environment before it moves an alias),
 * invoked directly with API Gateway's own events (shared/gateway-events.ts), the account API's as made-up users, with the
 * checks only a direct call can make (preflight, account API); the verdict goes back to CodeDeploy, and then, on a
 * stage without traffic of its own, the hook keeps calling the public URLs while the canary lasts.
 */
import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { randomUUID } from 'node:crypto';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { secretsManagerKeySecret, stageCheckKey } from '#data/stage-check-key';
import { tableName } from '#data/table-name';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV } from '#shared/accounts';
import { fetchThrough, type JwtAuthorizer, type LambdaFunction } from '#shared/gateway-events';
import { log } from '#runtime/logger';
import { FRONT_DOOR_SECRET_ENV, FRONT_DOOR_SECRET_HEADER } from '#shared/origin-headers';
import { ALL_ROUTES } from '#shared/routes';
import { PRE_TRAFFIC_ANSWERS_AT_LEAST, PRE_TRAFFIC_PASSES_AT_MOST, STAGE_CHECK_ENV as ENV } from '#shared/stage-check';
import type { FunctionName } from '#shared/table-access';
import { runSmokeChecks, type DirectTarget, type SmokeTarget } from '#scripts/smoke/checks';

/** The hook's requests are made out to a local server's addresses, which the OpenAPI documents list. */
const HOOK_ORIGIN = 'http://127.0.0.1:3000';
const CANARY_PASS_INTERVAL_MS = 5_000;

const secrets = new SecretsManagerClient({});
const lambda = new LambdaClient({});
const codeDeploy = new CodeDeployClient({});

/** The check's key; on a fresh stage, one it mints itself (lambda/data/stage-check-key.ts). */
const checkKey = (): Promise<string> =>
  stageCheckKey(
    secretsManagerKeySecret(secrets, process.env[ENV.keySecret] ?? ''),
    new DynamoApiKeyRepository(createDocumentClient(), tableName('apiKeys')),
  );

/** Runs the checks, logs the failures, and names them. */
async function failures(target: SmokeTarget): Promise<string[]> {
  const { results } = await runSmokeChecks(target, () => undefined);
  const failed = results.filter((result) => result.outcome === 'fail');
  for (const { name, detail } of failed) await log('warn', 'check failed', { check: name, detail });
  return failed.map((result) => result.name);
}

const publicTarget = (key: string): SmokeTarget => ({
  petsBaseUrl: process.env[ENV.petsBaseUrl] ?? '',
  messagesBaseUrl: process.env[ENV.messagesBaseUrl] ?? '',
  key,
  readOnly: true,
});

/** Each function of the stage, invoked at the version the deploy published; `answered` counts its answers. */
function newVersions(answered: Map<FunctionName, number>): Parameters<typeof fetchThrough>[0] {
  const arns = JSON.parse(process.env[ENV.versions] ?? '{}') as Partial<Record<FunctionName, string>>;
  const version =
    (name: FunctionName): LambdaFunction =>
    async (event) => {
      const answer = await lambda.send(new InvokeCommand({ FunctionName: arns[name], Payload: JSON.stringify(event) }));
      const text = new TextDecoder().decode(answer.Payload);
      // API Gateway answers 500 for a crashed function; the log says why.
      if (answer.FunctionError) await log('warn', 'new version failed', { function: name, payload: text.slice(0, 500) });
      if (answer.FunctionError) throw new Error(`${name}: ${answer.FunctionError}`);
      answered.set(name, (answered.get(name) ?? 0) + 1);
      return JSON.parse(text) as unknown;
    };
  const operations = new Map(ALL_ROUTES.map((route) => [route.operationId, version(route.operationId)]));
  return {
    authorizer: version('authorizer'),
    notFound: version('notFound'),
    accountNotFound: version('accountNotFound'),
    preflight: version('preflight'),
    operations,
  };
}

/**
 * The account API's JWT authorizer is API Gateway's, not a function: invoked directly, its functions get the verdict
 * from here. Each sign-in is a new made-up user, `stage-check-<uuid>`, which no user pool holds (deleting it deletes
 * nobody); its token is its claims, as require-account.ts reads them, and only the hook's own requests carry one.
 */
const TEST_IDENTITY_MINUTES = 15;
const testIdentity: DirectTarget = {
  accountBaseUrl: HOOK_ORIGIN,
  signIn: (overrides = {}) => {
    const user = `stage-check-${randomUUID()}`;
    const claims = {
      sub: user,
      username: user,
      token_use: 'access',
      client_id: process.env[ACCOUNT_TOKEN_AUDIENCE_ENV] ?? '',
      iss: process.env[ACCOUNT_TOKEN_ISSUER_ENV] ?? '',
      exp: String(Math.floor(Date.now() / 1000) + TEST_IDENTITY_MINUTES * 60),
      ...overrides,
    };
    return Buffer.from(JSON.stringify(claims)).toString('base64url');
  },
};
const testIdentityVerdict: JwtAuthorizer = (authorization) => {
  const claims = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  return Promise.resolve(
    claims
      ? { ok: true, jwt: { claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, string>, scopes: null } }
      : { ok: false, challenge: 'Bearer' },
  );
};

/**
 * The checks, again and again, until each new version they reach has answered PRE_TRAFFIC_ANSWERS_AT_LEAST requests
 * (docs/deploy-reference.md, Safe deploys): passed, or failed at the first failing pass or when some version stays unseen.
 */
async function exercised(target: SmokeTarget, answered: ReadonlyMap<FunctionName, number>): Promise<boolean> {
  for (let pass = 0; pass < PRE_TRAFFIC_PASSES_AT_MOST; pass++) {
    if ((await failures(target)).length > 0) return false;
    if (answered.size > 0 && Math.min(...answered.values()) >= PRE_TRAFFIC_ANSWERS_AT_LEAST) return true;
  }
  await log('warn', 'new versions answered too few requests', { answered: Object.fromEntries(answered) });
  return false;
}

async function preTraffic(deploymentId: string, lifecycleEventHookExecutionId: string): Promise<void> {
  const key = await checkKey().catch(async (error: unknown) => {
    await log('error', 'no check key', { error: String(error) });
    return undefined;
  });
  const secret = process.env[FRONT_DOOR_SECRET_ENV];
  const answered = new Map<FunctionName, number>();
  const passed =
    key !== undefined &&
    (await exercised(
      {
        petsBaseUrl: `${HOOK_ORIGIN}/v1`,
        messagesBaseUrl: HOOK_ORIGIN,
        key,
        readOnly: process.env[ENV.writes] !== 'true',
        bounded: true,
        direct: testIdentity,
        fetch: fetchThrough(newVersions(answered), secret ? { [FRONT_DOOR_SECRET_HEADER]: secret } : {}, testIdentityVerdict),
      },
      answered,
    ).catch(() => false));
  const status = passed ? 'Succeeded' : 'Failed';
  await codeDeploy.send(new PutLifecycleEventHookExecutionStatusCommand({ deploymentId, lifecycleEventHookExecutionId, status }));
  for (const until = Date.now() + Number(process.env[ENV.canaryTrafficMs] ?? 0); passed && Date.now() < until;) {
    await Promise.all([failures(publicTarget(key)), new Promise((wake) => setTimeout(wake, CANARY_PASS_INTERVAL_MS))]);
  }
}

export async function handler(event: { DeploymentId?: string; LifecycleEventHookExecutionId?: string }): Promise<void> {
  if (event.DeploymentId && event.LifecycleEventHookExecutionId) return preTraffic(event.DeploymentId, event.LifecycleEventHookExecutionId);
  const failed = await failures(publicTarget(await checkKey()));
  if (failed.length > 0) throw new Error(`${failed.length} stage checks failed: ${failed.join('; ')}`);
}
