/**
 * The stage check (lib/petstore-stage-check.ts): the smoke checks of scripts/smoke/checks.ts, the same ones
 * `npm run smoke` makes, with the check's own key.
 *
 * - On its schedule: read-only, through the public base URLs, as a client sees the stage. A failure fails the
 *   invocation, which is what its alarm counts.
 * - As CodeDeploy's BeforeAllowTraffic hook: against the versions this deploy published, invoked directly with API
 *   Gateway's own events (local/gateway.ts), before the alias sends them anything. CodeDeploy passes only the ids of
 *   the deployment and of the hook's run; the versions come from the environment, which CloudFormation updates before
 *   it moves any alias. The verdict goes back with PutLifecycleEventHookExecutionStatus; in a stage without traffic of
 *   its own the hook then keeps calling the public URLs while the canary lasts, for the rollback alarms to judge.
 */
import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { API_KEY_PREFIX } from '#auth/api-keys';
import type { GatewayFunctions, LambdaFunction } from '#local/functions';
import { fetchThrough } from '#local/gateway';
import { log } from '#runtime/logger';
import { FRONT_DOOR_SECRET_ENV, FRONT_DOOR_SECRET_HEADER } from '#shared/origin-headers';
import { ALL_ROUTES } from '#shared/routes';
import { STAGE_CHECK_ENV } from '#shared/stage-check';
import type { FunctionName } from '#shared/table-access';
import { runSmokeChecks, type CheckResult, type SmokeTarget } from './checks';

/** What CodeDeploy sends a lifecycle hook. */
export interface LifecycleHookEvent {
  readonly DeploymentId: string;
  readonly LifecycleEventHookExecutionId: string;
}

/** The addresses the hook's requests are made out to: a local server's, which the OpenAPI documents list. */
const HOOK_ORIGIN = 'http://127.0.0.1:3000';
/** Between two passes of the canary's traffic. */
const CANARY_PASS_INTERVAL_MS = 5_000;

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const secrets = new SecretsManagerClient({});
const lambda = new LambdaClient({});
const codeDeploy = new CodeDeployClient({});

async function checkKey(): Promise<string> {
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: env(STAGE_CHECK_ENV.keySecret) }));
  if (!SecretString?.startsWith(API_KEY_PREFIX)) {
    throw new Error('the stage check\'s secret holds no API key yet: docs/runbooks.md, "The stage check\'s key"');
  }
  return SecretString;
}

/** Runs the checks, logs each failure, and returns the failures. */
async function failuresOf(target: SmokeTarget): Promise<CheckResult[]> {
  const { results } = await runSmokeChecks(target, () => undefined);
  const failed = results.filter((result) => result.outcome === 'fail');
  for (const { name, detail } of failed) await log('warn', 'check failed', { check: name, detail });
  await log('info', 'stage check', { passed: results.filter((result) => result.outcome === 'pass').length, failed: failed.length });
  return failed;
}

const publicTarget = (key: string): SmokeTarget => ({
  petsBaseUrl: env(STAGE_CHECK_ENV.petsBaseUrl),
  messagesBaseUrl: env(STAGE_CHECK_ENV.messagesBaseUrl),
  key,
  readOnly: true,
});

/** A function of the stage, invoked at the version this deploy published. */
const versionOf =
  (name: FunctionName, arn: string): LambdaFunction =>
  async (event) => {
    const answer = await lambda.send(new InvokeCommand({ FunctionName: arn, Payload: JSON.stringify(event) }));
    const text = new TextDecoder().decode(answer.Payload);
    if (answer.FunctionError) {
      await log('warn', 'new version failed', { function: name, error: answer.FunctionError, payload: text.slice(0, 500) });
      throw new Error(`${name}: ${answer.FunctionError}`);
    }
    return JSON.parse(text) as unknown;
  };

function newVersions(): GatewayFunctions {
  const arns = JSON.parse(env(STAGE_CHECK_ENV.versions)) as Partial<Record<FunctionName, string>>;
  const named = (name: FunctionName): LambdaFunction => {
    const arn = arns[name];
    if (!arn) throw new Error(`${STAGE_CHECK_ENV.versions} names no version of ${name}`);
    return versionOf(name, arn);
  };
  return {
    authorizer: named('authorizer'),
    notFound: named('notFound'),
    accountNotFound: named('accountNotFound'),
    preflight: named('preflight'),
    operations: new Map(ALL_ROUTES.map((route) => [route.operationId, named(route.operationId)])),
  };
}

async function preTraffic(event: LifecycleHookEvent): Promise<void> {
  let key: string | undefined;
  let failures: unknown[] = ['not run'];
  try {
    key = await checkKey();
    const secret = process.env[FRONT_DOOR_SECRET_ENV];
    failures = await failuresOf({
      petsBaseUrl: `${HOOK_ORIGIN}/v1`,
      messagesBaseUrl: HOOK_ORIGIN,
      key,
      readOnly: process.env[STAGE_CHECK_ENV.writes] !== 'true',
      bounded: true,
      fetch: fetchThrough(newVersions(), secret ? { [FRONT_DOOR_SECRET_HEADER]: secret } : {}),
    });
  } catch (error) {
    await log('error', 'pre-traffic checks could not run', { error: error instanceof Error ? error.message : String(error) });
  } finally {
    await codeDeploy.send(
      new PutLifecycleEventHookExecutionStatusCommand({
        deploymentId: event.DeploymentId,
        lifecycleEventHookExecutionId: event.LifecycleEventHookExecutionId,
        status: failures.length === 0 ? 'Succeeded' : 'Failed',
      }),
    );
  }
  const until = Date.now() + Number(process.env[STAGE_CHECK_ENV.canaryTrafficMs] ?? 0);
  while (key && failures.length === 0 && Date.now() < until) {
    const pass = failuresOf(publicTarget(key));
    await Promise.all([pass, new Promise((wake) => setTimeout(wake, CANARY_PASS_INTERVAL_MS))]);
  }
}

export async function handler(event: Partial<LifecycleHookEvent>): Promise<void> {
  if (event.DeploymentId && event.LifecycleEventHookExecutionId) return preTraffic(event as LifecycleHookEvent);
  const failures = await failuresOf(publicTarget(await checkKey()));
  if (failures.length > 0) throw new Error(`${failures.length} stage checks failed: ${failures.map((failure) => failure.name).join('; ')}`);
}
