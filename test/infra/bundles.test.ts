/**
 * Bundles every deployed function exactly as the stack does (lib/bundling.ts, local esbuild, no
 * Docker) and runs each bundle in a fresh Node process outside the project, where no node_modules
 * can fill in for something the bundle forgot (the AWS SDK included), with only the table names the
 * stack gives that function (shared/table-access.ts): a handler needing another one fails to load here.
 */
import { build, formatMessages, type Metafile } from 'esbuild';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, parse } from 'node:path';
import { promisify } from 'node:util';
import { LAMBDA_BUNDLE_FILE, LAMBDA_BUNDLE_OPTIONS } from '#lib/bundling';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { STAGE_CHECK } from '#shared/stage-check';
import { tablesUsedBy } from '#shared/table-access';
import { TABLES, tableEnvironment } from '#shared/tables';
import { STATUS_SHARD_HISTORY, STATUS_SHARDS_ENV } from '#shared/status-shards';
import { functionEnvironment } from '#shared/function-settings';
import { AUTHORIZER_ENTRY, NOT_FOUND_ENTRY, PREFLIGHT_ENTRY } from '#shared/routes';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { freshTables } from '../support/local-dynamodb';
import { ERROR_LINE } from './fixtures/logs-an-error';
import { PROJECT_ROOT } from './support/project-root';

const run = promisify(execFile);

// The stage check too: it carries the OpenAPI documents and the smoke checks into Lambda (lib/petstore-stage-check.ts).
const FUNCTIONS = new Map([...DEPLOYED_FUNCTIONS, STAGE_CHECK].map(({ entry, name }) => [entry, name]));
const ENTRIES = [...FUNCTIONS.keys()];
/** Not a deployed function: it uses no table. */
const LOGS_AN_ERROR_ENTRY = 'test/infra/fixtures/logs-an-error.ts';

/** What Lambda provides (region), what the stack sets for every function, and this function's tables. */
const lambdaEnvironment = (entry: string): Record<string, string> => {
  const name = FUNCTIONS.get(entry);
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    ...functionEnvironment('ERROR'),
    ...(name ? tableEnvironment(tablesUsedBy(name), (key) => `bundle-test-${TABLES[key].baseName}`) : {}),
    ...(name && tablesUsedBy(name).includes('pets') ? { [STATUS_SHARDS_ENV]: JSON.stringify(STATUS_SHARD_HISTORY.dev) } : {}),
  };
};

let outDir: string;
/** Entry → its bundle, built once before the tests. */
const bundles = new Map<string, string>();
/** Entry → the source files esbuild put in its bundle (its metafile inputs). */
const inputs = new Map<string, readonly string[]>();
/** Every warning esbuild printed while bundling. */
const warnings: string[] = [];

/**
 * Requires the bundle like the Lambda runtime loads a CommonJS `index.js`; with EVENT set, also
 * invokes the handler once. The last stdout line is the outcome; every other line (stdout or stderr)
 * is one of the function's JSON log lines.
 */
const RUN_BUNDLE = `
const { handler } = require(process.env.BUNDLE_PATH);
(async () => {
  const result = process.env.EVENT ? await handler(JSON.parse(process.env.EVENT), {}) : undefined;
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
  process.stdout.write('\\n' + JSON.stringify({ handler: typeof handler, result, builtins }));
})();
`;

interface BundleRun {
  readonly handler: string;
  readonly result?: unknown;
  /** Node's built-in modules loaded by the end of the run. */
  readonly builtins: readonly string[];
  readonly logs: readonly Record<string, unknown>[];
}

async function runBundle(entry: string, event?: object, extraEnvironment: Record<string, string> = {}): Promise<BundleRun> {
  const outfile = bundles.get(entry) as string;
  const { stdout, stderr } = await run(process.execPath, ['--input-type=commonjs', '--eval', RUN_BUNDLE], {
    cwd: tmpdir(),
    env: { ...lambdaEnvironment(entry), ...extraEnvironment, BUNDLE_PATH: outfile, ...(event ? { EVENT: JSON.stringify(event) } : {}) },
    timeout: 15_000,
  });
  const nonEmptyLines = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '');
  const lines = nonEmptyLines(stdout);
  const outcome = JSON.parse(lines.pop() as string) as Omit<BundleRun, 'logs'>;
  return { ...outcome, logs: [...lines, ...nonEmptyLines(stderr)].map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** The files a build of `entry` alone would read (its metafile's inputs): those its imports reach, tree-shaken or not. */
function reachedFrom(metafile: Metafile, entry: string): string[] {
  const reached = new Set<string>();
  const next = [entry];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    next.push(...(metafile.inputs[file]?.imports ?? []).filter((imported) => !imported.external).map((imported) => imported.path));
  }
  return [...reached];
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'petstore-bundles-'));
  // One build of every entry: each output is the bundle a build of that entry alone writes, byte for byte (no
  // code splitting), and the SDK they share is parsed once instead of once per function (a third of the time).
  const entries = [...ENTRIES, LOGS_AN_ERROR_ENTRY];
  const result = await build({
    ...LAMBDA_BUNDLE_OPTIONS,
    entryPoints: entries.map((entry, position) => ({
      in: join(PROJECT_ROOT, entry),
      out: join(String(position), parse(LAMBDA_BUNDLE_FILE).name),
    })),
    outdir: outDir,
    absWorkingDir: PROJECT_ROOT,
    metafile: true,
    logLevel: 'silent',
  });
  warnings.push(...(await formatMessages(result.warnings, { kind: 'warning' })));
  entries.forEach((entry, position) => {
    bundles.set(entry, join(outDir, String(position), LAMBDA_BUNDLE_FILE));
    inputs.set(entry, reachedFrom(result.metafile, entry));
  });
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('every function bundles into a CommonJS module with a source map that loads in a fresh node and exports a handler', async () => {
  const loaded = await Promise.all(
    ENTRIES.map(async (entry) => {
      const outfile = bundles.get(entry) as string;
      return { entry, handler: (await runBundle(entry)).handler, sourceMap: existsSync(`${outfile}.map`) };
    }),
  );
  expect(loaded).toEqual(ENTRIES.map((entry) => ({ entry, handler: 'function', sourceMap: true })));
}, 60_000);

it('bundling every function emits no esbuild warning (a missing export of a shim only warns, and would fail at run time)', () => {
  expect(warnings).toEqual([]);
});

it('no deployed bundle carries the emulator (local/) or the CLIs’ own code: the stage check takes the gateway events from shared/', () => {
  const strays = ENTRIES.flatMap((entry) => (inputs.get(entry) ?? []).filter((file) => /^(local|bin|lib|bench|test)\//.test(file)));
  expect(strays).toEqual([]);
  expect(inputs.get(STAGE_CHECK.entry)).toEqual(expect.arrayContaining(['shared/gateway-events.ts', 'scripts/smoke/checks.ts']));
});

it("every alias of lib/bundling.ts still matches the SDK's imports: the stand-ins are bundled and the modules they replace are not", () => {
  // Only functions that use a table hold a DynamoDB client (not-found and preflight use none).
  const withTables = ENTRIES.filter((entry) => {
    const name = FUNCTIONS.get(entry);
    return name !== undefined && tablesUsedBy(name).length > 0;
  });
  for (const entry of withTables) {
    const bundled = inputs.get(entry) ?? [];
    // Every function with a DynamoDB client pulls both in; an SDK upgrade that renames the import escapes the alias.
    expect([
      entry,
      bundled
        .filter((file) => file.startsWith('lambda/runtime/bundle-shims/') && /env-credentials-provider|no-event-streams/.test(file))
        .sort(),
    ]).toEqual([entry, ['lambda/runtime/bundle-shims/env-credentials-provider.ts', 'lambda/runtime/bundle-shims/no-event-streams.ts']]);
    expect([
      entry,
      bundled.filter((file) =>
        /@aws-sdk\/credential-provider-(node|ini|sso|process|web-identity)\/|\/submodules\/event-streams\//.test(file),
      ),
    ]).toEqual([entry, []]);
  }
});

it("each route function's bundle carries its own API's caller check only: the pets and messages APIs' no access-token check", () => {
  const checks = ['lambda/auth/require-caller.ts', 'lambda/auth/require-account.ts'];
  const routes = [...DEPLOYED_FUNCTIONS].filter(({ name }) => name !== 'authorizer' && name !== 'preflight');
  expect(routes.map(({ entry }) => [entry, checks.filter((file) => inputs.get(entry)?.includes(file))])).toEqual(
    routes.map(({ entry, account }) => [entry, [account ? 'lambda/auth/require-account.ts' : 'lambda/auth/require-caller.ts']]),
  );
});

it('the bundled authorizer lets a request without Authorization through as anonymous, without calling AWS', async () => {
  const { result } = await runBundle(AUTHORIZER_ENTRY, { headers: {} });
  expect(result).toEqual({ isAuthorized: true, context: { authenticated: false, reason: 'missing' } });
}, 30_000);

it("the bundled not-found function answers an anonymous caller with the spec's 401 body", async () => {
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/v1/nowhere',
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method: 'GET', path: '/v1/nowhere' } },
    isBase64Encoded: false,
  };
  const { result } = await runBundle(NOT_FOUND_ENTRY, event);
  const response = result as { statusCode: number; body: string };
  expect(response.statusCode).toBe(401);
  expect(JSON.parse(response.body)).toMatchObject({ code: 'unauthorized', status: 401 });
}, 30_000);

it('the bundled preflight function answers 204 with no body and no headers of its own (API Gateway adds the CORS ones)', async () => {
  const { result } = await runBundle(PREFLIGHT_ENTRY, { rawPath: '/v1/pets', headers: { origin: 'https://app.example.com' } });
  expect(result).toEqual({ statusCode: 204 });
}, 30_000);

it("a bundled function logs an error's stack with TypeScript source positions, read from the shipped source map", async () => {
  const { logs } = await runBundle(LOGS_AN_ERROR_ENTRY, {});
  expect(logs).toHaveLength(1);
  const { error } = logs[0] as { error: { message: string; stack: string; location: string } };
  expect(error.message).toBe('deliberate failure');
  const firstFrame = error.stack.split('\n')[1] ?? '';
  expect(firstFrame).toMatch(new RegExp(`test/infra/fixtures/logs-an-error\\.ts:${ERROR_LINE}:\\d+`));
  expect(error.location).toMatch(new RegExp(`logs-an-error\\.ts:${ERROR_LINE}$`));
  // No frame is left pointing into the minified bundle.
  expect(error.stack).not.toContain(LAMBDA_BUNDLE_FILE);
}, 30_000);

it('a bundled handler answers its first request from DynamoDB without reading AWS config files', async () => {
  const { endpoint, tableNames } = await freshTables();
  // A config file that would be read (and would break the request) if the client looked for one.
  const home = mkdtempSync(join(tmpdir(), 'petstore-home-'));
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'config'), '[default]\nendpoint_url = http://127.0.0.1:9\nuse_fips_endpoint = true\n');
  try {
    const event = {
      version: '2.0',
      routeKey: 'GET /v1/pets/{petId}',
      rawPath: '/v1/pets/42',
      rawQueryString: '',
      headers: {},
      pathParameters: { petId: '42' },
      requestContext: {
        requestId: 'first',
        http: { method: 'GET', path: '/v1/pets/42' },
        authorizer: { lambda: { authenticated: true, accountId: 'acct_bundle', keyId: 'key_bundle' } },
      },
      isBase64Encoded: false,
    };
    const getPet = DEPLOYED_FUNCTIONS.find((fn) => fn.name === 'getPet')?.entry as string;
    const run = await runBundle(getPet, event, {
      ...localFunctionEnvironment({ endpoint, tableNames }),
      AWS_LAMBDA_FUNCTION_NAME: 'PetStore-bundle-test-getPet',
      HOME: home,
    });
    // A 404 from the table: the request really reached DynamoDB.
    expect(run.result).toMatchObject({ statusCode: 404 });
    expect(run.builtins).toContain('https');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}, 30_000);
