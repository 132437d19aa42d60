/**
 * `npm run rehearse`: what `cdk deploy` would ship for a stage, served on this machine. From the cloud assembly
 * (`cdk synth`'s output): the tables as the template defines them (keys, indexes), each function's bundle (its asset,
 * found through the assembly's asset manifest), handler, timeout and environment, and the routes of the template's
 * HTTP APIs to those functions, behind the local server's gateway emulation. A bundle that cannot reach its table, a
 * missing variable, an index the code queries but the template lacks, a route the template lacks: each fails here.
 * What the rehearsal does not cover is listed in docs/testing.md.
 */
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { AssetManifestArtifact, CloudAssembly, type CloudFormationStackArtifact } from 'aws-cdk-lib/cx-api';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV, COGNITO_ENDPOINT_ENV, USER_POOL_ID_ENV } from '#shared/accounts';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { PREFLIGHT_ROUTE, type ApiName } from '#shared/routes';
import { stackNameOf, type StageName } from '#shared/stages';
import type { FunctionName } from '#shared/table-access';
import { TABLES } from '#shared/tables';
import { startLocalAccounts, type LocalAccounts } from './accounts';
import type { BundleInvocation, BundleReply, BundleWorkerData } from './bundle-worker';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startLocalDynamoDb } from './dynamodb-engine';
import { gatewayFunctions, type LambdaFunction } from './functions';
import { startLocalApi, type LocalApi } from './server';

type Properties = Record<string, unknown>;
type Resources = Record<string, { readonly Type: string; readonly Properties?: Properties }>;

export interface Rehearsal {
  readonly api: LocalApi;
  /** The embedded DynamoDB, and the local name of the authorizer's API-keys table. */
  readonly endpoint: string;
  readonly apiKeysTable: string;
  close(): Promise<void>;
}

/** What the SDK needs to reach the emulators: a region and any credentials. */
export const LOCAL_SDK_ENVIRONMENT: Readonly<Record<string, string>> = {
  AWS_REGION: LOCAL_REGION,
  AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
};

/**
 * The one mapping of values a template leaves to CloudFormation: a table's `Ref` is the local table named after its
 * logical id; these variables, tokens of the user pool, take cognito-local's values; the rest are Lambda's own
 * variables and where the emulated services listen. Any other token fails the rehearsal, naming it.
 */
function localValues(
  accounts: LocalAccounts,
  endpoint: string,
  functionName: string,
): { tokens: Readonly<Record<string, string>>; runtime: Readonly<Record<string, string>> } {
  const { cognito } = accounts;
  return {
    tokens: {
      [USER_POOL_ID_ENV]: cognito.userPoolId,
      [ACCOUNT_TOKEN_ISSUER_ENV]: cognito.issuer,
      [ACCOUNT_TOKEN_AUDIENCE_ENV]: cognito.clientId,
    },
    runtime: {
      AWS_LAMBDA_FUNCTION_NAME: functionName,
      ...LOCAL_SDK_ENVIRONMENT,
      DYNAMODB_ENDPOINT: endpoint,
      [COGNITO_ENDPOINT_ENV]: cognito.endpoint,
    },
  };
}

const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

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

/** A function's bundle in a worker of its own (local/bundle-worker.ts), started at its first invocation and after a timeout or crash. */
function bundleFunction(
  name: string,
  data: BundleWorkerData,
  env: Record<string, string>,
  timeoutMs: number,
  running: Set<Worker>,
): LambdaFunction {
  let worker: Worker | undefined;
  let nextId = 0;
  const calls = new Map<number, { done: (result: unknown) => void; fail: (error: Error) => void; timer: NodeJS.Timeout }>();
  const settle = (id: number) => {
    const call = calls.get(id);
    calls.delete(id);
    clearTimeout(call?.timer);
    return call;
  };
  const start = (): Worker => {
    // No tsx (execArgv): the bundle loads with Node's own require, as in Lambda.
    const started = new Worker(new URL('./bundle-worker.ts', import.meta.url), { env, workerData: data, execArgv: [], stdout: true });
    running.add(started);
    let crash = 'it exited';
    // Its log, less the INFO lines and metrics documents of every request: what a reader of a failed rehearsal needs.
    createInterface({ input: started.stdout }).on('line', (line) => {
      if (!line.startsWith('{') || /"level":"(WARN|ERROR|CRITICAL)"/.test(line)) console.error(`${name}: ${line}`);
    });
    started.on('message', (reply: BundleReply) => {
      const call = settle(reply.id);
      if ('result' in reply) return call?.done(reply.result);
      // What Lambda logs as the invocation's error.
      console.error(`${name}: invocation failed: ${reply.error}`);
      call?.fail(new Error(reply.error));
    });
    started.on('error', (error) => console.error(`${name}: ${(crash = String(error))}`));
    started.on('exit', () => {
      running.delete(started);
      if (worker === started) worker = undefined;
      for (const id of [...calls.keys()]) settle(id)?.fail(new Error(`${name}: its sandbox ended: ${crash}`));
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
      const invocation: BundleInvocation = { id, event, context: { ...plain, functionName: name }, deadline: Date.now() + timeoutMs };
      sandbox.postMessage(invocation);
    });
}

async function createTables(endpoint: string, resources: Resources): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await Promise.all(
      ofType(resources, 'AWS::DynamoDB::Table').map(async ([id, { Properties: table = {} }]) => {
        const indexes = (table.GlobalSecondaryIndexes ?? []) as NonNullable<CreateTableCommandInput['GlobalSecondaryIndexes']>;
        await client.send(
          new CreateTableCommand({
            TableName: id,
            BillingMode: 'PAY_PER_REQUEST',
            KeySchema: table.KeySchema as CreateTableCommandInput['KeySchema'],
            AttributeDefinitions: table.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
            // Only what the engines take: warm throughput and the like are AWS's business.
            ...(indexes.length > 0
              ? { GlobalSecondaryIndexes: indexes.map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection })) }
              : {}),
          }),
        );
        await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: id });
      }),
    );
  } finally {
    client.destroy();
  }
}

/** Where the template routes to each function of shared/deployed-functions.ts that serves no route of its own. */
const UNROUTED: Readonly<Record<string, readonly [api: ApiName, routeKey: string, property?: string]>> = {
  authorizer: ['pets', '$default', 'AuthorizerId'],
  notFound: ['pets', '$default'],
  accountNotFound: ['account', '$default'],
  preflight: ['pets', `${PREFLIGHT_ROUTE.method} ${PREFLIGHT_ROUTE.path}`],
};

export async function startRehearsal(options: {
  assemblyDir: string;
  stage: StageName;
  corsOrigins: readonly string[];
}): Promise<Rehearsal> {
  const stackName = stackNameOf(options.stage);
  const stack = ((): CloudFormationStackArtifact => {
    try {
      return new CloudAssembly(options.assemblyDir).getStackByName(stackName);
    } catch (error) {
      throw new Error(`${(error as Error).message}: synthesize it first (npm run synth -- -c stage=${options.stage})`);
    }
  })();
  const resources = (stack.template as { Resources: Resources }).Resources;
  const assets = stack.dependencies.find((artifact) => artifact instanceof AssetManifestArtifact)?.contents.files ?? {};

  const stops: (() => unknown)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const db = await startLocalDynamoDb({});
    stops.push(() => db.stop());
    await createTables(db.endpoint, resources);
    const accounts = await startLocalAccounts();
    stops.push(() => accounts.stop());
    // Lambda unpacks a bundle where no package.json makes `.js` an ES module (this project's does).
    const unpacked = mkdtempSync(join(tmpdir(), 'petstore-rehearsal-'));
    stops.push(() => rmSync(unpacked, { recursive: true, force: true }));
    writeFileSync(join(unpacked, 'package.json'), '{"type":"commonjs"}');
    const workers = new Set<Worker>();
    stops.push(() => Promise.all([...workers].map((worker) => worker.terminate())));

    const sandboxes = new Map<string, { invoke: LambdaFunction; env: Record<string, string>; timeoutMs: number }>();
    const sandbox = (id: string) => {
      const known = sandboxes.get(id);
      if (known) return known;
      const { Handler, Timeout, Code, Environment } = (resources[id]?.Properties ?? {}) as Properties & { Code?: { S3Key?: unknown } };
      const asset = Object.values(assets).find((file) => Object.values(file.destinations).some((to) => to.objectKey === Code?.S3Key));
      if (!asset?.source.path) throw new Error(`${id}: its code is no asset of ${stackName}`);
      const dir = join(unpacked, id);
      cpSync(join(options.assemblyDir, asset.source.path), dir, { recursive: true });
      const local = localValues(accounts, db.endpoint, id);
      const variables = Object.entries((Environment as { Variables?: Properties } | undefined)?.Variables ?? {}).map(([name, value]) => {
        const ref = refOf(value);
        if (typeof value === 'string') return [name, value];
        if (ref !== undefined && resources[ref]?.Type === 'AWS::DynamoDB::Table') return [name, ref];
        const stand = local.tokens[name];
        if (stand === undefined) throw new Error(`${id}: ${name} is ${JSON.stringify(value)}, which the rehearsal has no local value for`);
        return [name, stand];
      });
      const env = { ...(Object.fromEntries(variables) as Record<string, string>), ...local.runtime };
      const timeoutMs = Number(Timeout) * 1000;
      const made = { invoke: bundleFunction(id, { dir, handler: String(Handler) }, env, timeoutMs, workers), env, timeoutMs };
      sandboxes.set(id, made);
      return made;
    };

    // The template's routes, each to the function its integration invokes (through the `live` alias where there is one).
    const apiNames = new Map(
      ofType(resources, 'AWS::ApiGatewayV2::Api').map(([id, api]) => [id, String(api.Properties?.Name).replace(`${stackName}-`, '')]),
    );
    const routes = new Map(
      ofType(resources, 'AWS::ApiGatewayV2::Route').map(([, { Properties: route = {} }]) => [
        `${apiNames.get(refOf(route.ApiId) ?? '')} ${String(route.RouteKey)}`,
        route,
      ]),
    );
    const routed = (name: FunctionName) => {
      const route = DEPLOYED_FUNCTIONS.find((deployed) => deployed.name === name)?.route;
      const [api, key, property = 'Target'] = route ? [route.api, `${route.method} ${route.path}`] : (UNROUTED[name] ?? []);
      const id = functionIn(resources, routes.get(`${api} ${key}`)?.[property]);
      if (!id) throw new Error(`the template of ${stackName} has no route ${key} to ${name} on its ${api} API`);
      return sandbox(id);
    };
    const functions = gatewayFunctions((name) => routed(name).invoke);
    const apiKeysTable = routed('authorizer').env[TABLES.apiKeys.envVar];
    if (!apiKeysTable) throw new Error(`the authorizer of ${stackName} has no ${TABLES.apiKeys.envVar}`);

    const api = await startLocalApi({
      functions,
      accountAuthorizer: accounts.accountAuthorizer,
      corsOrigins: options.corsOrigins,
      functionTimeoutMs: Math.max(...[...sandboxes.values()].map(({ timeoutMs }) => timeoutMs)),
    });
    stops.push(() => api.close());
    return { api, endpoint: db.endpoint, apiKeysTable, close };
  } catch (error) {
    await close();
    throw error;
  }
}
