/**
 * Part 1: cold start. Every deployed function is bundled exactly as the stack bundles it
 * (lib/bundling.ts), then timed as a fresh `node` process that imports the bundle — which runs all of
 * its module-scope work (SDK clients, schemas, middleware) — against a bare `node -e 0`, interleaved
 * so that machine noise hits every row alike. Each process also reports the CPU time it used (all its
 * threads), steadier than wall time on a busy machine. Reference rows: a straightforward handler, and
 * each Powertools library we write our own of (bench/reference/), beside ours doing the same.
 * A cold start as its caller feels it is more: a second fresh process per function loads the bundle and
 * answers one real request against the bench's DynamoDB (bench/first-requests.ts), the SDK's first call
 * included; it reports the CPU of its two halves, init (the load) and the first invocation.
 */
import { build, type BuildOptions } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LAMBDA_BUNDLE_FILE, LAMBDA_BUNDLE_OPTIONS } from '#lib/bundling';
import { functionEnvironment } from '#shared/function-settings';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { emulatorEnvironment } from '#local/dev/function-environment';
import type { FunctionName } from '#shared/table-access';
import { BENCH_IDENTITY, BENCH_STATUS_SHARDS, type BenchStore } from './bench-store';
import { firstRequests } from './first-requests';
import type { BenchUserPool } from './user-pool';
import type { BudgetCheck, Table } from './report';
import { kib, median, ms } from './stats';

export const COLD_START_BUDGET_RATIO = 2.5;
export const COLD_START_AIM_RATIO = 2.0;
/** Init plus the first invocation, spawn to exit, against a bare node's spawn to exit. */
export const FELT_COLD_START_BUDGET_RATIO = 4;
/** The first invocation's own CPU (the process's total less what it had used when the bundle had loaded). */
export const FIRST_INVOCATION_CPU_BUDGET_MS = 80;
const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const BARE = 'bare node (node -e 0)';
/** Preloaded into every measured process: prints its CPU time (user + system, µs) on stderr as it exits. */
const CPU_REPORT = "process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu '+(u.user+u.system)+'\\n')})";

/**
 * What a fresh process runs for "init plus first invocation": loads the bundle (init), prints the CPU used so far,
 * then invokes the handler once with the event file's request (`@RUN@`: this process's own account) and a Lambda
 * context, prints the answer's status and exits, as Lambda freezes a function once it has answered.
 */
const FIRST_CALL = `const { readFileSync } = require('node:fs');
const { randomUUID } = require('node:crypto');
const [bundle, eventFile, name] = process.argv.slice(2);
const { handler } = require(bundle);
const init = process.cpuUsage();
process.stderr.write('\\ninit ' + (init.user + init.system) + '\\n');
const event = JSON.parse(readFileSync(eventFile, 'utf8').replaceAll('@RUN@', String(process.pid)));
const deadline = Date.now() + 10000;
const context = { callbackWaitsForEmptyEventLoop: false, functionName: name, functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:' + name, memoryLimitInMB: '512',
  awsRequestId: randomUUID(), logGroupName: '/aws/lambda/' + name, logStreamName: 'bench',
  getRemainingTimeInMillis: () => deadline - Date.now() };
Promise.resolve(handler(event, context)).then((answer) => {
  const status = answer && 'isAuthorized' in answer ? (answer.context && answer.context.authenticated ? 200 : 401) : answer && answer.statusCode;
  process.stderr.write('\\nstatus ' + status + '\\n');
  process.exit(0);
}, (error) => { process.stderr.write(String(error && error.stack)); process.exit(1); });
`;

/**
 * What Lambda's environment holds at start-up (region, the execution role's credentials as
 * variables, function metadata) plus what the stack sets (shared/function-settings.ts). Built from
 * scratch, not inherited, so start-up-heavy variables of this shell (NODE_OPTIONS,
 * NODE_EXTRA_CA_CERTS, …) never reach a measured process unless the stack deploys them too.
 */
function lambdaLikeEnvironment(functionName: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    AWS_REGION: 'eu-west-1',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'ASIABENCHMARKEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'bench/secret/access/key/example/0000000000',
    AWS_SESSION_TOKEN: 'bench-session-token',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_LAMBDA_FUNCTION_NAME: `PetStore-bench-${functionName}`,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    TZ: ':UTC',
    ...functionEnvironment('INFO'),
  };
}

interface Subject {
  readonly label: string;
  /** What node runs: a bundle, or `-e 0`. */
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly bundle?: { readonly raw: number; readonly gzip: number };
  readonly reference?: true;
  /** Init plus first invocation: the status the request must answer. */
  readonly answers?: number;
}

async function bundle(
  entry: string,
  outDir: string,
  options: BuildOptions,
  fileName = LAMBDA_BUNDLE_FILE,
): Promise<{ file: string; raw: number; gzip: number }> {
  const file = join(outDir, fileName);
  mkdirSync(outDir, { recursive: true });
  await build({ ...options, entryPoints: [join(PROJECT_ROOT, entry)], outfile: file, logLevel: 'error' });
  return { file, raw: statSync(file).size, gzip: gzipSync(readFileSync(file)).length };
}

/**
 * The straightforward bundle: the stack's esbuild options without our cold-start choices — an ES
 * module (what a new Node project reaches for; CommonJS needs the `require` shim below) and no alias.
 */
function straightforwardOptions(): BuildOptions {
  const { alias: _trimmed, format: _cjs, ...options } = LAMBDA_BUNDLE_OPTIONS as BuildOptions;
  return {
    ...options,
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  };
}

interface Sample {
  readonly wall: number;
  readonly cpu: number;
  /** CPU used by the time the bundle had loaded (init plus first invocation only). */
  readonly init?: number;
}

/** Wall time from spawn to exit, and the CPU time the process reported, in ms. */
function timeOnce(subject: Subject, cwd: string, preload: string): Sample {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--require', preload, ...subject.args], {
    cwd,
    env: subject.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = performance.now() - started;
  const stderr = result.stderr.toString();
  const cpu = /\ncpu (\d+)\n/.exec(stderr)?.[1];
  if (result.status !== 0 || cpu === undefined) throw new Error(`${subject.label} exited with ${result.status}: ${stderr.slice(0, 2_000)}`);
  if (subject.answers === undefined) return { wall, cpu: Number(cpu) / 1_000 };
  const status = /\nstatus (\S+)\n/.exec(stderr)?.[1];
  if (status !== String(subject.answers))
    throw new Error(`${subject.label} answered ${status}, not ${subject.answers}: ${stderr.slice(0, 2_000)}`);
  return { wall, cpu: Number(cpu) / 1_000, init: Number(/\ninit (\d+)\n/.exec(stderr)?.[1]) / 1_000 };
}

/** The reference rows: entry, bundle options and file name; the Powertools rows bundle as our functions do. */
const REFERENCES: readonly { label: string; entry: string; options: () => BuildOptions; file: string }[] = [
  { label: 'straightforward getPet', entry: 'straightforward-handler', options: straightforwardOptions, file: 'index.mjs' },
  { label: 'Powertools Logger, one line', entry: 'powertools-logger', options: () => LAMBDA_BUNDLE_OPTIONS, file: LAMBDA_BUNDLE_FILE },
  {
    label: 'Powertools Metrics, one document',
    entry: 'powertools-metrics',
    options: () => LAMBDA_BUNDLE_OPTIONS,
    file: LAMBDA_BUNDLE_FILE,
  },
  { label: 'Powertools Tracer, set up', entry: 'powertools-tracer', options: () => LAMBDA_BUNDLE_OPTIONS, file: LAMBDA_BUNDLE_FILE },
  {
    label: 'our logger, metrics and tracer, the same',
    entry: 'own-telemetry',
    options: () => LAMBDA_BUNDLE_OPTIONS,
    file: LAMBDA_BUNDLE_FILE,
  },
];

export interface ColdStartResult {
  readonly table: Table;
  /** Init plus first invocation. */
  readonly felt: Table;
  readonly checks: BudgetCheck[];
}

/** What the stack gives the function (shared/function-recipe.ts), on the bench's tables, DynamoDB and user pool facts. */
function stackEnvironment(
  name: FunctionName,
  bench: BenchStore,
  pool: Pick<BenchUserPool, 'endpoint' | 'userPoolId'>,
): Record<string, string> {
  const fn = DEPLOYED_FUNCTIONS.find((candidate) => candidate.name === name);
  if (!fn) throw new Error(`no deployed function ${name}`);
  const { environment } = functionRecipe(fn, {
    tableName: (key) => bench.store.tableNames[key],
    logLevel: 'INFO',
    statusShards: BENCH_STATUS_SHARDS,
    identity: { userPoolId: pool.userPoolId, issuer: BENCH_IDENTITY.issuer, audience: BENCH_IDENTITY.clientId },
  });
  return { ...lambdaLikeEnvironment(name), ...environment, ...emulatorEnvironment(bench.store.endpoint, pool.endpoint) };
}

export async function runColdStart(
  workDir: string,
  runs: number,
  bench: BenchStore,
  petId: number,
  /** deleteAccount's user pool (user-pool.ts). */
  pool: Pick<BenchUserPool, 'endpoint' | 'userPoolId'>,
): Promise<ColdStartResult> {
  const requests = firstRequests(bench, petId);
  const firstCall = join(workDir, 'first-call.cjs');
  writeFileSync(firstCall, FIRST_CALL);
  const subjects: Subject[] = [{ label: BARE, args: ['-e', '0'], env: lambdaLikeEnvironment('bare') }];
  const felt: Subject[] = [];
  const built = await Promise.all([
    ...DEPLOYED_FUNCTIONS.map(async ({ name, entry }) => {
      const output = await bundle(entry, join(workDir, name), LAMBDA_BUNDLE_OPTIONS);
      const env = stackEnvironment(name, bench, pool);
      const request = requests[name as keyof typeof requests];
      const eventFile = join(workDir, name, 'event.json');
      writeFileSync(eventFile, JSON.stringify(request.event));
      felt.push({ label: name, args: [firstCall, output.file, eventFile, name], env, bundle: output, answers: request.status });
      return { label: name, args: [output.file], env, bundle: output } satisfies Subject;
    }),
    ...REFERENCES.map(async ({ label, entry, options, file }) => {
      const output = await bundle(`bench/reference/${entry}.ts`, join(workDir, entry), options(), file);
      const env = { ...lambdaLikeEnvironment(entry), PETS_TABLE_NAME: 'PetStore-bench-pets' };
      return { label: `reference: ${label}`, args: [output.file], env, bundle: output, reference: true } satisfies Subject;
    }),
  ]);
  const order = (subject: Subject) => DEPLOYED_FUNCTIONS.findIndex(({ name }) => name === subject.label);
  subjects.push(...built, ...felt.sort((a, b) => order(a) - order(b)));

  const preload = join(workDir, 'cpu-report.cjs');
  writeFileSync(preload, CPU_REPORT);
  // One unmeasured round fills the OS file cache, then every run times each subject once, in turn.
  for (const subject of subjects) timeOnce(subject, workDir, preload);
  const samples = new Map<Subject, Sample[]>(subjects.map((subject) => [subject, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of subjects) samples.get(subject)?.push(timeOnce(subject, workDir, preload));
  }

  const medians = (subject: Subject) => {
    const measured = samples.get(subject) ?? [];
    return {
      wall: median(measured.map((one) => one.wall)),
      cpu: median(measured.map((one) => one.cpu)),
      init: median(measured.map((one) => one.init ?? NaN)),
      call: median(measured.map((one) => one.cpu - (one.init ?? NaN))),
    };
  };
  const bare = medians(subjects[0] as Subject);
  const rows = subjects
    .filter((subject) => subject.answers === undefined)
    .map((subject) => {
      const { wall, cpu } = medians(subject);
      return {
        subject,
        ratio: wall / bare.wall,
        cells: [
          subject.label,
          subject.bundle ? kib(subject.bundle.raw) : '–',
          subject.bundle ? kib(subject.bundle.gzip) : '–',
          ms(wall),
          `+${ms(wall - bare.wall)}`,
          `${(wall / bare.wall).toFixed(2)}×`,
          ms(cpu),
          `+${ms(cpu - bare.cpu)}`,
        ],
      };
    });
  const loadOnly = new Map(rows.map((row) => [row.subject.label, medians(row.subject)]));
  const feltRows = felt.map((subject) => {
    const measured = medians(subject);
    const load = loadOnly.get(subject.label);
    return { subject, ...measured, ratio: measured.wall / bare.wall, loadRatio: (load?.wall ?? NaN) / bare.wall };
  });
  const checks: BudgetCheck[] = [
    ...rows
      .filter((row) => row.subject.bundle && !row.subject.reference)
      .map((row) => ({
        name: `cold start ${row.subject.label}`,
        limit: `≤ ${COLD_START_BUDGET_RATIO}× bare (aim ${COLD_START_AIM_RATIO}×)`,
        measured: `${row.ratio.toFixed(2)}×`,
        passed: row.ratio <= COLD_START_BUDGET_RATIO,
      })),
    ...feltRows.flatMap((row) => [
      {
        name: `cold start as felt ${row.subject.label} (init + first invocation)`,
        limit: `≤ ${FELT_COLD_START_BUDGET_RATIO}× bare`,
        measured: `${row.ratio.toFixed(2)}×`,
        passed: row.ratio <= FELT_COLD_START_BUDGET_RATIO,
      },
      {
        name: `first invocation CPU ${row.subject.label}`,
        limit: `≤ ${FIRST_INVOCATION_CPU_BUDGET_MS} ms`,
        measured: `${ms(row.call)} ms`,
        passed: row.call <= FIRST_INVOCATION_CPU_BUDGET_MS,
      },
    ]),
  ];
  return {
    table: {
      title: 'Cold start (fresh node process loading the production bundle)',
      note: `Median of ${runs} interleaved runs each, process spawn to exit; CPU: user + system time the process reported at exit. Bundles built with lib/bundling.ts.`,
      columns: ['function', 'bundle', 'gzip', 'median ms', 'over bare', 'ratio to bare', 'CPU ms', 'CPU over bare'],
      rows: rows.map((row) => row.cells),
    },
    felt: {
      title: 'Cold start as felt (fresh node process: init, then one real request against the local DynamoDB)',
      note:
        `Median of ${runs} runs each, interleaved with the rows above (same bare node: ${ms(bare.wall)} ms, CPU ${ms(bare.cpu)} ms); ` +
        'init CPU: used by the time the bundle had loaded; first invocation CPU: the rest, up to the answer. Requests: bench/first-requests.ts.',
      columns: [
        'function',
        'answer',
        'init ms (ratio)',
        'init + first invocation ms',
        'ratio to bare',
        'CPU init ms',
        'CPU first invocation ms',
      ],
      rows: feltRows.map((row) => [
        row.subject.label,
        String(row.subject.answers),
        `${ms(loadOnly.get(row.subject.label)?.wall ?? NaN)} (${row.loadRatio.toFixed(2)}×)`,
        ms(row.wall),
        `${row.ratio.toFixed(2)}×`,
        ms(row.init),
        ms(row.call),
      ]),
    },
    checks,
  };
}
