/**
 * Part 1: cold start. Every deployed function is bundled exactly as the stack bundles it
 * (lib/bundling.ts), then timed as a fresh `node` process that imports the bundle — which runs all of
 * its module-scope work (SDK clients, schemas, middleware) — against a bare `node -e 0`, interleaved
 * so that machine noise hits every row alike.
 */
import { build, type BuildOptions } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LAMBDA_BUNDLE_FILE, LAMBDA_BUNDLE_OPTIONS } from '#lib/bundling';
import { functionEnvironment } from '#shared/function-settings';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { tablesUsedBy } from '#shared/table-access';
import { TABLES, tableEnvironment } from '#shared/tables';
import type { BudgetCheck, Table } from './report';
import { kib, median, ms } from './stats';

export const COLD_START_BUDGET_RATIO = 2.5;
export const COLD_START_AIM_RATIO = 2.0;
const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const REFERENCE_ENTRY = 'bench/reference/straightforward-handler.ts';
const BARE = 'bare node (node -e 0)';

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

function timeOnce(subject: Subject, cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, subject.args, { cwd, env: subject.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${subject.label} exited with ${result.status}: ${result.stderr.toString().slice(0, 2_000)}`);
  return elapsed;
}

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
      };
      return { label: name, args: [output.file], env, bundle: output } satisfies Subject;
    }),
    (async () => {
      const output = await bundle(REFERENCE_ENTRY, join(workDir, 'reference'), straightforwardOptions(), 'index.mjs');
      const env = { ...lambdaLikeEnvironment('reference'), PETS_TABLE_NAME: 'PetStore-bench-pets' };
      return { label: 'reference: straightforward getPet', args: [output.file], env, bundle: output, reference: true } satisfies Subject;
    })(),
  ]);
  subjects.push(...built);

  // One unmeasured round fills the OS file cache, then every run times each subject once, in turn.
  for (const subject of subjects) timeOnce(subject, workDir);
  const samples = new Map<Subject, number[]>(subjects.map((subject) => [subject, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of subjects) samples.get(subject)?.push(timeOnce(subject, workDir));
  }

  const bare = median(samples.get(subjects[0] as Subject) ?? []);
  const rows = subjects.map((subject) => {
    const time = median(samples.get(subject) ?? []);
    return {
      subject,
      time,
      ratio: time / bare,
      cells: [
        subject.label,
        subject.bundle ? kib(subject.bundle.raw) : '–',
        subject.bundle ? kib(subject.bundle.gzip) : '–',
        ms(time),
        `+${ms(time - bare)}`,
        `${(time / bare).toFixed(2)}×`,
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
      note: `Median of ${runs} interleaved runs each, process spawn to exit; bundles built with lib/bundling.ts.`,
      columns: ['function', 'bundle', 'gzip', 'median ms', 'over bare', 'ratio to bare'],
      rows: rows.map((row) => row.cells),
    },
    checks,
  };
}
