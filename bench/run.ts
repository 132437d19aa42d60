/**
 * `npm run bench`: cold start, warm overhead, DynamoDB calls and capacity per request, listing at
 * scale and `npm run dev`'s reload, each against its budget (docs/performance.md). Exits non-zero when a budget is missed.
 *   --smoke          tiny counts: proves every part runs and prints; budgets reported, never enforced
 *   --write-results  also writes the report to bench/results.md and the cost model's inputs to bench/costs.json (never in CI)
 */
import { runPartitionHeat } from './partition-heat';
import { format, resolveConfig } from 'prettier';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadFunctions } from '#local/gateway/functions';
import { openBenchStore } from './bench-store';
import { runColdStart } from './cold-start';
import { measureCostInputs } from './cost-inputs';
import { costTables, type CostInputs } from './costs';
import { inventoryOfStages } from './stage-templates';
import { runDevReload } from './dev-reload';
import { runDynamoDbUsage } from './dynamodb-usage';
import { describeMachine } from './machine';
import { budgetTable, renderTable, type BudgetCheck } from './report';
import { runScaling } from './scaling';
import { installSdkTimer } from './sdk-timer';
import { startBenchUserPool } from './user-pool';
import { runWarmOverhead } from './warm-overhead';

const BEFORE_AND_AFTER = '### Before and after';
const KNOWN_FLAGS = new Set(['--smoke', '--write-results']);
const flags = new Set(process.argv.slice(2));
for (const flag of flags) {
  if (!KNOWN_FLAGS.has(flag)) {
    console.error(`unknown option ${flag}; known: ${[...KNOWN_FLAGS].join(', ')}`);
    process.exit(2);
  }
}
const smoke = flags.has('--smoke');

/** Full runs satisfy the minimums of docs/performance.md (≥ 30 cold starts, 1k vs 20k pets). */
const COUNTS = smoke
  ? {
      coldStartRuns: 3,
      warmIterations: 30,
      usageRequests: 5,
      keyHistory: 200,
      heatSeconds: 2,
      scaling: { small: 100, large: 400 },
      scalingRequests: 20,
      devReloads: 2,
    }
  : {
      coldStartRuns: 40,
      warmIterations: 1_000,
      usageRequests: 50,
      // The account history the issue measured at 8.2 s and 5.1 MB per listing before the listing was bounded.
      keyHistory: 20_000,
      heatSeconds: 60,
      scaling: { small: 1_000, large: 20_000 },
      scalingRequests: 300,
      devReloads: 10,
    };

const COSTS_FILE = resolve(import.meta.dirname, 'costs.json');
const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`);

async function main(): Promise<number> {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const sections: string[] = [];
  const checks: BudgetCheck[] = [];
  let engine = '';
  let costInputs: CostInputs | undefined;
  try {
    log(`5/6 npm run dev: ${COUNTS.devReloads} reloads of an edited handler, in a copy of the project`);
    const reload = await runDevReload(workDir, COUNTS.devReloads);
    log(`6/6 partition heat: ${COUNTS.heatSeconds} s of creates replayed through the id and index-key functions`);
    const heat = runPartitionHeat(COUNTS.heatSeconds);
    // A smoke run reads the stages' inventories bench/costs.json recorded (test/infra/stack/costs.ts holds them to the templates).
    log(smoke ? '7/7 costs: the stages as bench/costs.json recorded them' : '7/7 costs: synthesizing each stage once');
    const stages = smoke ? (JSON.parse(readFileSync(COSTS_FILE, 'utf8')) as CostInputs).stages : inventoryOfStages();

    log('starting the local DynamoDB');
    const bench = await openBenchStore(!smoke);
    engine = bench.engineLabel;
    try {
      // Handlers read their environment (set by openBenchStore) when their modules load, as in Lambda.
      const functions = await loadFunctions();
      const timer = installSdkTimer();
      log(`4/6 scaling: seeding ${COUNTS.scaling.small} then ${COUNTS.scaling.large} pets (measured first, on an empty table)`);
      const scaling = await runScaling(functions, bench, COUNTS.scaling, COUNTS.scalingRequests);
      log('2/6 warm overhead: in-process invocations');
      const warm = await runWarmOverhead(functions, bench, timer, COUNTS.warmIterations, 1);
      log('3/6 DynamoDB calls and capacity per request');
      const usage = await runDynamoDbUsage(functions, bench, COUNTS.usageRequests, 1, COUNTS.keyHistory);
      log('7/7 costs: each costed request and one stage check run, as prod logs them');
      const cost = await measureCostInputs(functions, bench, usage.meter, stages.prod.accessLogFormat, COUNTS.usageRequests);
      costInputs = { measured: cost.measured, stages };
      // Last: its fresh processes answer real requests on these tables (a pet seeded by part 4 among them).
      log('1/6 cold start: bundling every function and timing fresh node processes, alone and answering a first request');
      const pool = await startBenchUserPool();
      let cold: Awaited<ReturnType<typeof runColdStart>>;
      try {
        cold = await runColdStart(workDir, COUNTS.coldStartRuns, bench, 1, pool);
      } finally {
        await pool.stop();
      }
      for (const table of [cold.table, cold.felt, warm.table, usage.table, scaling.table, reload.table, heat.table])
        sections.push(renderTable(table));
      for (const table of costTables(costInputs)) sections.push(renderTable(table));
      for (const part of [cold, warm, usage, scaling, reload, heat]) checks.push(...part.checks);
    } finally {
      await bench.stop();
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }

  const header = [
    `## Bench results${smoke ? ' (smoke run: tiny counts, budgets not enforced)' : ''}`,
    '',
    `- Machine: ${describeMachine()}`,
    `- DynamoDB engine: ${engine}`,
    `- Date: ${new Date().toISOString()}`,
    '',
  ].join('\n');
  const report = [header, ...sections, renderTable(budgetTable(checks))].join('\n');
  console.log(report);
  const missed = checks.filter((check) => !check.passed);
  console.log(
    `bench finished in ${((performance.now() - started) / 1000).toFixed(1)} s: ${checks.length - missed.length} of ${checks.length} budgets met`,
  );

  if (flags.has('--write-results')) {
    const file = resolve(import.meta.dirname, 'results.md');
    // The before-and-after sections are written by hand, from runs of two versions; a new run keeps them.
    const previous = readFileSync(file, 'utf8');
    const kept = previous.indexOf(BEFORE_AND_AFTER);
    writeFileSync(file, `${report}\n${kept === -1 ? '' : `\n${previous.slice(kept)}`}`);
    // As the format check wants it: the file is committed.
    writeFileSync(
      COSTS_FILE,
      await format(JSON.stringify(costInputs, null, 2), { ...(await resolveConfig(COSTS_FILE)), filepath: COSTS_FILE }),
    );
    log(`wrote ${file} and ${COSTS_FILE}`);
  }
  if (smoke) return 0;
  if (missed.length > 0) console.error(`budgets missed: ${missed.map((check) => check.name).join('; ')}`);
  return missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
