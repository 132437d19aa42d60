/**
 * Part 1: cold start. Every deployed function is bundled exactly as the stack bundles it
 * (lib/bundling.ts), then timed as a fresh `node` process that imports the bundle — which runs all of
 * its module-scope work (SDK clients, schemas, middleware) — against a bare `node -e 0`, interleaved
 * so that machine noise hits every row alike. Each process also reports the CPU time it used (all its
 * threads), steadier than wall time on a busy machine. Reference rows: a straightforward handler, and
 * each Powertools library we write our own of (bench/reference/), beside ours doing the same.
 */
import { build, type BuildOptions } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LAMBDA_BUNDLE_FILE, LAMBDA_BUNDLE_OPTIONS } from '#lib/bundling';
import { functionEnvironment } from '#shared/function-settings';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { tablesUsedBy } from '#shared/table-access';
import { TABLES, tableEnvironment } from '#shared/tables';
import { STATUS_SHARD_HISTORY, STATUS_SHARDS_ENV } from '#shared/status-shards';
import type { BudgetCheck, Table } from './report';
import { kib, median, ms } from './stats';

export const COLD_START_BUDGET_RATIO = 2.5;
export const COLD_START_AIM_RATIO = 2.0;
const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const BARE = 'bare node (node -e 0)';
/** Preloaded into every measured process: prints its CPU time (user + system, µs) on stderr as it exits. */
const CPU_REPORT = "process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu '+(u.user+u.system)+'\\n')})";

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

/** Wall time from spawn to exit, and the CPU time the process reported, in ms. */
function timeOnce(subject: Subject, cwd: string, preload: string): { wall: number; cpu: number } {
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
  return { wall, cpu: Number(cpu) / 1_000 };
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
  readonly checks: BudgetCheck[];
}

export async function runColdStart(workDir: string, runs: number): Promise<ColdStartResult> {
  const subjects: Subject[] = [{ label: BARE, args: ['-e', '0'], env: lambdaLikeEnvironment('bare') }];
  const built = await Promise.all([
    ...DEPLOYED_FUNCTIONS.map(async ({ name, entry }) => {
      const output = await bundle(entry, join(workDir, name), LAMBDA_BUNDLE_OPTIONS);
      const env = {
        ...lambdaLikeEnvironment(name),
        ...tableEnvironment(tablesUsedBy(name), (key) => `PetStore-bench-${TABLES[key].baseName}`),
        ...(tablesUsedBy(name).includes('pets') ? { [STATUS_SHARDS_ENV]: JSON.stringify(STATUS_SHARD_HISTORY.prod) } : {}),
      };
      return { label: name, args: [output.file], env, bundle: output } satisfies Subject;
    }),
    ...REFERENCES.map(async ({ label, entry, options, file }) => {
      const output = await bundle(`bench/reference/${entry}.ts`, join(workDir, entry), options(), file);
      const env = { ...lambdaLikeEnvironment(entry), PETS_TABLE_NAME: 'PetStore-bench-pets' };
      return { label: `reference: ${label}`, args: [output.file], env, bundle: output, reference: true } satisfies Subject;
    }),
  ]);
  subjects.push(...built);

  const preload = join(workDir, 'cpu-report.cjs');
  writeFileSync(preload, CPU_REPORT);
  // One unmeasured round fills the OS file cache, then every run times each subject once, in turn.
  for (const subject of subjects) timeOnce(subject, workDir, preload);
  const samples = new Map<Subject, { wall: number; cpu: number }[]>(subjects.map((subject) => [subject, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of subjects) samples.get(subject)?.push(timeOnce(subject, workDir, preload));
  }

  const medians = (subject: Subject) => {
    const measured = samples.get(subject) ?? [];
    return { wall: median(measured.map((one) => one.wall)), cpu: median(measured.map((one) => one.cpu)) };
  };
  const bare = medians(subjects[0] as Subject);
  const rows = subjects.map((subject) => {
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
  const checks = rows
    .filter((row) => row.subject.bundle && !row.subject.reference)
    .map((row) => ({
      name: `cold start ${row.subject.label}`,
      limit: `≤ ${COLD_START_BUDGET_RATIO}× bare (aim ${COLD_START_AIM_RATIO}×)`,
      measured: `${row.ratio.toFixed(2)}×`,
      passed: row.ratio <= COLD_START_BUDGET_RATIO,
    }));
  return {
    table: {
      title: 'Cold start (fresh node process loading the production bundle)',
      note: `Median of ${runs} interleaved runs each, process spawn to exit; CPU: user + system time the process reported at exit. Bundles built with lib/bundling.ts.`,
      columns: ['function', 'bundle', 'gzip', 'median ms', 'over bare', 'ratio to bare', 'CPU ms', 'CPU over bare'],
      rows: rows.map((row) => row.cells),
    },
    checks,
  };
}
