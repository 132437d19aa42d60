/**
 * `npm run rehearse` (docs/testing.md): what `cdk deploy` would ship, on this machine, from the cloud assembly: the
 * template's tables and, behind the local gateway, its routes' functions, each from its asset in a worker of its own.
 */
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { AssetManifestArtifact, CloudAssembly } from 'aws-cdk-lib/cx-api';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV, USER_POOL_ID_ENV } from '#shared/accounts';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { PREFLIGHT_ROUTE, type ApiName } from '#shared/routes';
import { isWellFormedApiKey } from '#auth/api-keys';
import { STAGE_CHECK, STAGE_CHECK_ENV } from '#shared/stage-check';
import { stackNameOf, type StageName } from '#shared/stages';
import type { FunctionName } from '#shared/table-access';
import { TABLES } from '#shared/tables';
import { startLocalAccounts } from '#local/identity/accounts';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startLocalDynamoDb } from '#local/engine/dynamodb-engine';
import { emulatorEnvironment } from './function-environment';
import { gatewayFunctions, type LambdaFunction } from '#local/gateway/functions';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import { startHookStandIn } from './hook-stand-in';

type Resources = Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>;

/** A function's sandbox: a worker without tsx, the bundle loaded with Node's require as in Lambda; the deadline rebuilds the context. */
const SANDBOX = `const { parentPort, workerData: { dir, handler } } = require('node:worker_threads');
const dot = handler.lastIndexOf('.');
const run = require(require('node:path').join(dir, handler.slice(0, dot)))[handler.slice(dot + 1)];
if (typeof run !== 'function') throw new Error('the bundle has no function ' + handler);
parentPort.on('message', ({ id, event, context, deadline }) => Promise.resolve()
  .then(() => run(event, { ...context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) }))
  .then((result) => parentPort.postMessage({ id, result }), (error) => parentPort.postMessage({ id, error: String(error?.stack ?? error) })));`;
type Reply = { id: number; result: unknown } | { id: number; error: string };

type Properties = NonNullable<Resources[string]['Properties']>;
const ofType = (resources: Resources, type: string, test = (_: Properties) => true) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type && test(resource.Properties ?? {}));

const refOf = (value: unknown): string | undefined => {
  const ref = (value as { Ref?: unknown } | null)?.Ref ?? (value as { 'Fn::GetAtt'?: unknown[] } | null)?.['Fn::GetAtt']?.[0];
  return typeof ref === 'string' ? ref : undefined;
};

/** Which property leads from a resource on to the function it stands for. */
const LEADS_TO: Readonly<Record<string, string>> = {
  'AWS::Lambda::Alias': 'FunctionName',
  'AWS::Lambda::Version': 'FunctionName',
  'AWS::ApiGatewayV2::Integration': 'IntegrationUri',
  'AWS::ApiGatewayV2::Authorizer': 'AuthorizerUri',
};

/** The logical id of the function a value (a route's target, an ARN built with Fn::Join …) leads to. */
function functionIn(resources: Resources, value: unknown): string | undefined {
  const ref = refOf(value);
  const resource = ref === undefined ? undefined : resources[ref];
  if (resource?.Type === 'AWS::Lambda::Function') return ref;
  const lead = resource && LEADS_TO[resource.Type];
  if (lead) return functionIn(resources, resource.Properties?.[lead]);
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.values(value).reduce<string | undefined>((found, part) => found ?? functionIn(resources, part), undefined);
}

/** A function in its sandbox, started at its first invocation and again after a timeout, a crash or a recycle. */
function sandboxed(
  name: string,
  options: WorkerOptions,
  timeoutMs: number,
  stops: (() => unknown)[],
  recycles: (() => unknown)[],
): LambdaFunction {
  let worker: Worker | undefined;
  recycles.push(() => worker?.terminate());
  let nextId = 0;
  const calls = new Map<number, { done: (result: unknown) => void; fail: (error: Error) => void; timer: NodeJS.Timeout }>();
  const settle = (id: number) => {
    const call = calls.get(id);
    calls.delete(id);
    clearTimeout(call?.timer);
    return call;
  };
  const start = (): Worker => {
    const started = new Worker(SANDBOX, { ...options, eval: true, execArgv: [], stdout: true });
    stops.push(() => started.terminate());
    // Its log less the INFO lines and metrics documents of every request: what the reader of a failed rehearsal needs.
    createInterface({ input: started.stdout }).on('line', (line) => {
      if (!line.startsWith('{') || /"level":"(WARN|ERROR|CRITICAL)"/.test(line)) console.error(`${name}: ${line}`);
    });
    started.on('message', (reply: Reply) => {
      const call = settle(reply.id);
      if ('result' in reply) return call?.done(reply.result);
      console.error(`${name}: invocation failed: ${reply.error}`);
      call?.fail(new Error(reply.error));
    });
    started.on('error', (error) => console.error(`${name}: ${String(error)}`));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      const why = `${name}: its sandbox ended (a crash, or the function's ${timeoutMs} ms timeout)`;
      for (const id of [...calls.keys()]) settle(id)?.fail(new Error(why));
    });
    return started;
  };
  return (event, context) =>
    new Promise((done, fail) => {
      const sandbox = (worker ??= start());
      const id = nextId++;
      // Lambda ends the sandbox at the timeout; the next invocation starts a new one.
      calls.set(id, { done, fail, timer: setTimeout(() => void sandbox.terminate(), timeoutMs) });
      const plain = Object.fromEntries(Object.entries(context).filter(([, value]) => typeof value !== 'function'));
      sandbox.postMessage({ id, event, context: { ...plain, functionName: name }, deadline: Date.now() + timeoutMs });
    });
}

/** Where the template routes to the functions of shared/deployed-functions.ts that serve no route of their own. */
const UNROUTED: Readonly<Record<string, readonly [api: ApiName, routeKey: string, property?: string]>> = {
  authorizer: ['pets', '$default', 'AuthorizerId'],
  notFound: ['pets', '$default'],
  accountNotFound: ['account', '$default'],
  preflight: ['pets', `${PREFLIGHT_ROUTE.method} ${PREFLIGHT_ROUTE.path}`],
};

export interface Rehearsal {
  readonly api: LocalApi;
  /** What a client of the emulators needs in its environment: where they listen, their region and credentials. */
  readonly environment: Readonly<Record<string, string>>;
  readonly apiKeysTable: string;
  /** Ends every sandbox, as Lambda retires its instances: the next invocations start cold, their caches empty. */
  recycle(): Promise<void>;
  /**
   * The stage check's pre-traffic hook, from its bundle, as CodeDeploy runs it on a fresh stage (its secret as the
   * stack leaves it): its verdict, and whether its secret holds a key afterwards.
   */
  preTraffic(): Promise<{ verdict: string; keyKept: boolean }>;
  close(): Promise<void>;
}

export async function startRehearsal(stage: StageName, assemblyDir: string, corsOrigins: readonly string[]): Promise<Rehearsal> {
  const stackName = stackNameOf(stage);
  const synthFirst = `no cloud assembly in ${assemblyDir}: synthesize the stage first (npm run synth -- -c stage=${stage})`;
  if (!existsSync(join(assemblyDir, 'manifest.json'))) throw new Error(synthFirst);
  const stack = new CloudAssembly(assemblyDir).getStackByName(stackName);
  const resources = (stack.template as { Resources: Resources }).Resources;
  const assets = stack.dependencies.find((artifact) => artifact instanceof AssetManifestArtifact)?.contents.files ?? {};
  const stops: (() => unknown)[] = [];
  const recycles: (() => unknown)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const db = await startLocalDynamoDb({});
    stops.push(() => db.stop());
    const client = new DynamoDBClient({ endpoint: db.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const create = async ([id, { Properties }]: [string, Resources[string]]) => {
      const { KeySchema, AttributeDefinitions, GlobalSecondaryIndexes = [] } = Properties as unknown as CreateTableCommandInput;
      // Keys, attributes and indexes only: billing, warm throughput, TTL and the like are AWS's business.
      const indexes = GlobalSecondaryIndexes.map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }));
      const input = { TableName: id, BillingMode: 'PAY_PER_REQUEST' as const, KeySchema, AttributeDefinitions };
      await client.send(new CreateTableCommand(indexes.length > 0 ? { ...input, GlobalSecondaryIndexes: indexes } : input));
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: id });
    };
    await Promise.all(ofType(resources, 'AWS::DynamoDB::Table').map(create)).finally(() => client.destroy());
    const accounts = await startLocalAccounts();
    stops.push(() => accounts.stop());
    // Lambda unpacks a bundle where no package.json makes `.js` an ES module (this project's does).
    const unpacked = mkdtempSync(join(tmpdir(), 'petstore-rehearsal-'));
    stops.push(() => rmSync(unpacked, { recursive: true, force: true }));
    writeFileSync(join(unpacked, 'package.json'), '{"type":"commonjs"}');

    // What the template leaves to CloudFormation: a table's `Ref` is its logical id, the pool's tokens cognito-local's.
    const { cognito } = accounts;
    const tokens: Record<string, string> = {
      [USER_POOL_ID_ENV]: cognito.userPoolId,
      [ACCOUNT_TOKEN_ISSUER_ENV]: cognito.issuer,
      [ACCOUNT_TOKEN_AUDIENCE_ENV]: cognito.clientId,
    };
    const valueOf = (id: string, [name, value]: [string, unknown]): [string, string] => {
      const ref = refOf(value);
      const local = typeof value === 'string' ? value : ref && resources[ref]?.Type === 'AWS::DynamoDB::Table' ? ref : tokens[name];
      if (local === undefined) throw new Error(`${id}: ${name} is ${JSON.stringify(value)}, which the rehearsal has no local value for`);
      return [name, local];
    };
    const environment = emulatorEnvironment(db.endpoint, cognito.endpoint);

    const sandbox = (id: string, given: Readonly<Record<string, string>> = {}) => {
      type Fn = { Handler?: string; Timeout?: number; Code?: { S3Key?: string }; Environment?: { Variables?: object } };
      const { Handler = '', Timeout = 3, Code, Environment } = (resources[id]?.Properties ?? {}) as Fn;
      const asset = Object.values(assets).find((file) => Object.values(file.destinations).some((to) => to.objectKey === Code?.S3Key));
      if (!asset?.source.path) throw new Error(`${id}: its code is no asset of ${stackName}`);
      const dir = join(unpacked, id);
      cpSync(join(assemblyDir, asset.source.path), dir, { recursive: true });
      // Given values stand in for what the rehearsal cannot resolve (the hook's secret, the published versions).
      const variables = Object.entries(Environment?.Variables ?? {}).flatMap((variable) =>
        variable[0] in given ? [] : [valueOf(id, variable)],
      );
      const env: Record<string, string> = { ...Object.fromEntries(variables), AWS_LAMBDA_FUNCTION_NAME: id, ...environment, ...given };
      return { invoke: sandboxed(id, { env, workerData: { dir, handler: Handler } }, Timeout * 1000, stops, recycles), env };
    };

    // The template's routes, each to the function its integration invokes (through the `live` alias where there is one).
    const routed = (name: FunctionName) => {
      const route = DEPLOYED_FUNCTIONS.find((deployed) => deployed.name === name)?.route;
      const [apiName, key, property = 'Target'] = route ? [route.api, `${route.method} ${route.path}`] : (UNROUTED[name] ?? []);
      const apiId = ofType(resources, 'AWS::ApiGatewayV2::Api', (api) => api.Name === `${stackName}-${apiName}`)[0]?.[0];
      const [found] = ofType(resources, 'AWS::ApiGatewayV2::Route', (route) => refOf(route.ApiId) === apiId && route.RouteKey === key);
      const id = functionIn(resources, found?.[1].Properties?.[property]);
      if (!id) throw new Error(`the template of ${stackName} has no route ${key} to ${name} on its ${apiName} API`);
      return sandbox(id);
    };
    const authorizer = routed('authorizer');
    const functions = gatewayFunctions((name) => (name === 'authorizer' ? authorizer : routed(name)).invoke);
    const apiKeysTable = authorizer.env[TABLES.apiKeys.envVar];
    if (!apiKeysTable) throw new Error(`the authorizer of ${stackName} has no ${TABLES.apiKeys.envVar}`);

    // Each sandbox ends at its own timeout; API Gateway gives up on an integration after 30 s.
    const api = await startLocalApi({ functions, accountAuthorizer: accounts.accountAuthorizer, corsOrigins, functionTimeoutMs: 30_000 });
    stops.push(() => api.close());
    const recycle = async (): Promise<void> => {
      await Promise.all(recycles.map((end) => end()));
    };
    const preTraffic = async (): Promise<{ verdict: string; keyKept: boolean }> => {
      const role = `${STAGE_CHECK.name}: CodeDeploy's BeforeAllowTraffic hook`;
      const [hookId] = ofType(resources, 'AWS::Lambda::Function', (fn) => String(fn.Description).startsWith(role))[0] ?? [];
      if (!hookId) throw new Error(`${stackName} has no pre-traffic hook`);
      const versions = new Map<string, LambdaFunction>();
      const standIn = await startHookStandIn((name) => {
        const fn = versions.get(name) ?? (name === 'authorizer' ? authorizer : routed(name as FunctionName)).invoke;
        versions.set(name, fn);
        return fn;
      });
      stops.push(() => standIn.close());
      const hook = sandbox(hookId, {
        [STAGE_CHECK_ENV.keySecret]: standIn.secretArn,
        [STAGE_CHECK_ENV.versions]: JSON.stringify(
          Object.fromEntries(DEPLOYED_FUNCTIONS.map((fn) => [fn.name, standIn.versionArn(fn.name)])),
        ),
        [STAGE_CHECK_ENV.petsBaseUrl]: api.petsBaseUrl,
        [STAGE_CHECK_ENV.messagesBaseUrl]: api.origin,
        // The canary's public calls after the verdict are CodeDeploy's window, not the check's.
        [STAGE_CHECK_ENV.canaryTrafficMs]: '0',
        ...Object.fromEntries(
          ['SECRETS_MANAGER', 'LAMBDA', 'CODEDEPLOY'].map((service) => [`AWS_ENDPOINT_URL_${service}`, standIn.origin]),
        ),
      });
      await hook.invoke({ DeploymentId: 'd-REHEARSAL', LifecycleEventHookExecutionId: 'rehearsal' }, {} as never);
      return { verdict: standIn.verdicts.join(', ') || 'none', keyKept: isWellFormedApiKey(standIn.secret()) };
    };
    return { api, environment, apiKeysTable, recycle, preTraffic, close };
  } catch (error) {
    await close();
    throw error;
  }
}
