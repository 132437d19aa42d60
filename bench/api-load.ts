/**
 * Part 3: the local API under load. autocannon drives the local server (its own process, see
 * api-server.ts) at a fixed concurrency for a bounded time, and the same operation is done directly
 * with the SDK against the same DynamoDB at the same concurrency, the two alternating in slices. The
 * API's throughput relative to the direct one is what the HTTP hop plus our gateway emulation,
 * authorizer and middleware cost; for GET by id a bare HTTP server (bare-server.ts) runs in the same
 * slices, so the report separates the two. Only a round after the warm-up rounds is measured, and each
 * of its slices' CPU time is charged to the processes involved (caller, server, DynamoDB engine).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchStore } from './bench-store';
import { directCalls } from './direct-calls';
import { ownCpuMs, processCpuMs } from './process-cpu';
import type { BudgetCheck, Table } from './report';
import { median, ms, percentile } from './stats';

export const API_THROUGHPUT_BUDGET = 0.7;
const PROJECT_ROOT = resolve(import.meta.dirname, '..');

interface ApiServer {
  readonly origin: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** `script`: the local API (api-server.ts) or the floor (bare-server.ts). */
export async function startApiServer(environment: Record<string, string>, script = 'bench/api-server.ts'): Promise<ApiServer> {
  // Only what the server needs: no NODE_OPTIONS or CA bundles from this shell.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...environment, POWERTOOLS_LOG_LEVEL: 'ERROR' };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`bench API server did not start:\n${output}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /\{"origin":"([^"]+)"\}/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        ready(match[1]);
      }
    });
    child.once('exit', (code) => fail(new Error(`bench API server exited with ${code}:\n${output}`)));
  });
  return {
    origin,
    pid: child.pid,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

interface LoadOutcome {
  readonly requests: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * CPU ms spent during a slice by the caller (this process), the server and the DynamoDB engine;
 * `undefined` for a process the side does not have (no server for direct calls, no engine process
 * for dynalite) or that cannot be read (no /proc).
 */
interface CpuSpent {
  readonly caller: number;
  readonly server: number | undefined;
  readonly engine: number | undefined;
}

type Slice = LoadOutcome & { readonly cpu: CpuSpent };

/**
 * Slices of one side, combined: throughput over their total time, and latency percentiles as the
 * request-weighted mean of each slice's (autocannon reports percentiles, not samples).
 */
function combine(slices: readonly LoadOutcome[]): { requestsPerSecond: number; p50: number; p99: number } {
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const weighted = (pick: (slice: LoadOutcome) => number) => slices.reduce((sum, slice) => sum + pick(slice) * slice.requests, 0) / Math.max(1, requests);
  return { requestsPerSecond: requests / seconds, p50: weighted((slice) => slice.p50), p99: weighted((slice) => slice.p99) };
}

interface Scenario {
  readonly label: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly direct: () => Promise<unknown>;
  /** Also measure the floor (bare-server.ts): the HTTP hop alone, without our layers. */
  readonly floor?: true;
}

async function throughHttp(origin: string, apiKey: string, scenario: Scenario, connections: number, seconds: number): Promise<LoadOutcome> {
  const result = await autocannon({
    url: `${origin}${scenario.path}`,
    method: scenario.method,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${apiKey}`, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
    ...(scenario.body ? { body: scenario.body } : {}),
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(`${scenario.label}: ${result.errors} errors, ${result.timeouts} timeouts, status codes ${JSON.stringify(result.statusCodeStats)}`);
  }
  // Throughput over the time autocannon actually ran, from its own start and finish.
  const elapsed = (result.finish.getTime() - result.start.getTime()) / 1000;
  return { requests: result.requests.total, seconds: elapsed, p50: result.latency.p50, p99: result.latency.p99 };
}

async function directly(scenario: Scenario, connections: number, seconds: number): Promise<LoadOutcome> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await scenario.direct();
        latencies.push(performance.now() - started);
      }
    }),
  );
  // Over the time until the last call in flight answered, as for autocannon's start and finish.
  return { requests: latencies.length, seconds: (performance.now() - started) / 1000, p50: median(latencies), p99: percentile(latencies, 99) };
}

function scenarios(bench: BenchStore, db: DynamoDBDocumentClient, petId: number): Scenario[] {
  const direct = directCalls(db, bench.store.tableNames);
  let sequence = 0;
  return [
    {
      label: 'GET /v1/pets/{id}',
      method: 'GET',
      path: `/v1/pets/${petId}`,
      direct: () => direct.getPet(petId),
      floor: true,
    },
    {
      label: 'GET /v1/pets?status=sold&limit=20',
      method: 'GET',
      path: '/v1/pets?status=sold&limit=20',
      direct: () => direct.listByStatus('sold', 20),
    },
    {
      label: 'POST /v1/pets',
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({ name: 'load', categoryId: 2, status: 'pending' }),
      direct: () => direct.putNew('pets', { id: 2 ** 52 + sequence++, name: 'load', categoryId: 2, status: 'pending', createdAt: new Date().toISOString() }),
    },
  ];
}

export interface LoadResult {
  readonly table: Table;
  /** Where a request's CPU goes, per side of each scenario. */
  readonly cpuTable: Table;
  readonly checks: BudgetCheck[];
}

type Side = 'api' | 'floor' | 'direct';
/**
 * A-B-B-A (A-B-C-C-B-A with the floor), so a machine that speeds up or slows down during the run
 * (shared VMs do) weighs on every side alike.
 */
const sliceOrder = (scenario: Scenario): readonly Side[] => (scenario.floor ? ['api', 'floor', 'direct', 'direct', 'floor', 'api'] : ['api', 'direct', 'direct', 'api']);
const SLICES_PER_SIDE = 2;

const cpuNow = (serverPid: number | undefined, enginePid: number | undefined): CpuSpent => ({
  caller: ownCpuMs(),
  server: serverPid === undefined ? undefined : processCpuMs(serverPid),
  engine: enginePid === undefined ? undefined : processCpuMs(enginePid),
});

const minus = (end: number | undefined, start: number | undefined): number | undefined => (end === undefined || start === undefined ? undefined : end - start);

const spentBetween = (before: CpuSpent, after: CpuSpent): CpuSpent => ({
  caller: after.caller - before.caller,
  server: minus(after.server, before.server),
  engine: minus(after.engine, before.engine),
});

/** Other processes are readable (Linux): then "all" adds up every process a side involves. */
const OTHER_PROCESSES_READABLE = processCpuMs(process.pid) !== undefined;

/** Mean CPU ms per request over slices: caller, server, engine, and all of them. */
function cpuPerRequest(slices: readonly Slice[]): string[] {
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const total = (pick: (cpu: CpuSpent) => number | undefined): number | undefined =>
    slices.some((slice) => pick(slice.cpu) === undefined) ? undefined : slices.reduce((sum, slice) => sum + (pick(slice.cpu) ?? 0), 0);
  const [caller, server, engine] = [total((cpu) => cpu.caller), total((cpu) => cpu.server), total((cpu) => cpu.engine)];
  const all = OTHER_PROCESSES_READABLE ? (caller ?? 0) + (server ?? 0) + (engine ?? 0) : undefined;
  return [caller, server, engine, all].map((part) => (part === undefined ? '–' : (part / requests).toFixed(2)));
}

const share = (part: { requestsPerSecond: number }, whole: { requestsPerSecond: number }): string => `${((part.requestsPerSecond / whole.requestsPerSecond) * 100).toFixed(0)}%`;

export interface LoadOptions {
  readonly connections: number;
  /** Whole seconds (autocannon's unit); each side runs SLICES_PER_SIDE of them per round. */
  readonly sliceSeconds: number;
  /** Unmeasured rounds of the same slices before the measured one. */
  readonly warmUpRounds: number;
}

export async function runApiLoad(bench: BenchStore, petId: number, options: LoadOptions): Promise<LoadResult> {
  const { connections, sliceSeconds, warmUpRounds } = options;
  const server = await startApiServer(bench.store.environment);
  const floorServer = await startApiServer(bench.store.environment, 'bench/bare-server.ts');
  const servers: Record<Exclude<Side, 'direct'>, ApiServer> = { api: server, floor: floorServer };
  const rows: string[][] = [];
  const cpuRows: string[][] = [];
  const checks: BudgetCheck[] = [];
  try {
    for (const scenario of scenarios(bench, bench.db, petId)) {
      const order = sliceOrder(scenario);
      const run = async (side: Side, seconds: number): Promise<Slice> => {
        const serverPid = side === 'direct' ? undefined : servers[side].pid;
        const before = cpuNow(serverPid, bench.store.enginePid);
        const outcome = await (side === 'direct' ? directly(scenario, connections, seconds) : throughHttp(servers[side].origin, bench.apiKey, scenario, connections, seconds));
        return { ...outcome, cpu: spentBetween(before, cpuNow(serverPid, bench.store.enginePid)) };
      };
      const round = async (name: string): Promise<Record<Side, Slice[]>> => {
        const slices: Record<Side, Slice[]> = { api: [], floor: [], direct: [] };
        const rates: string[] = [];
        for (const side of order) {
          const slice = await run(side, sliceSeconds);
          slices[side].push(slice);
          rates.push(`${side} ${(slice.requests / slice.seconds).toFixed(0)}`);
        }
        process.stderr.write(`[bench]   ${scenario.label}, ${name} (req/s): ${rates.join(', ')}\n`);
        return slices;
      };
      // Unmeasured rounds of the same slices first. The servers are fresh processes and DynamoDB
      // Local's JIT has not seen this load: here every process's CPU per request keeps falling for a
      // minute or two (DynamoDB Local's from ~4 to ~0.5 ms, the API server's from ~2 to ~0.9 ms), and
      // a climb left inside the measured round weighs most on its first slice, always the API's (with
      // a 1 s warm-up GET by id measured 60–79% of direct; see README "Performance").
      for (let index = 1; index <= warmUpRounds; index++) await round(`warm-up round ${index}`);
      const slices = await round('measured round');
      const api = combine(slices.api);
      const direct = combine(slices.direct);
      const ratio = api.requestsPerSecond / direct.requestsPerSecond;
      rows.push([scenario.label, api.requestsPerSecond.toFixed(0), `${ms(api.p50)} / ${ms(api.p99)}`, direct.requestsPerSecond.toFixed(0), `${ms(direct.p50)} / ${ms(direct.p99)}`, share(api, direct)]);
      cpuRows.push([scenario.label, 'API', ...cpuPerRequest(slices.api)]);
      if (scenario.floor) cpuRows.push([scenario.label, 'floor', ...cpuPerRequest(slices.floor)]);
      cpuRows.push([scenario.label, 'direct SDK', ...cpuPerRequest(slices.direct)]);
      if (scenario.floor) {
        const floor = combine(slices.floor);
        rows.push([`floor: ${scenario.label} on a bare HTTP server`, floor.requestsPerSecond.toFixed(0), `${ms(floor.p50)} / ${ms(floor.p99)}`, '–', '–', share(floor, direct)]);
      }
      checks.push({
        name: `API throughput ${scenario.label}`,
        limit: `≥ ${API_THROUGHPUT_BUDGET * 100}% of direct SDK`,
        measured: `${(ratio * 100).toFixed(0)}%`,
        passed: ratio >= API_THROUGHPUT_BUDGET,
      });
    }
  } finally {
    await Promise.all([server.stop(), floorServer.stop()]);
  }
  return {
    table: {
      title: 'Local API under load vs. the same operation directly with the SDK',
      note:
        `${connections} connections (autocannon) / ${connections} concurrent SDK calls, ${SLICES_PER_SIDE * sliceSeconds} s per side in alternating slices of ${sliceSeconds} s ` +
        '(API, direct, direct, API; with the floor API, floor, direct, direct, floor, API), same DynamoDB engine, same run; ' +
        `after ${warmUpRounds} unmeasured warm-up round${warmUpRounds === 1 ? '' : 's'} of the same slices; ` +
        "p50/p99 are request-weighted means of the slices'. " +
        'The floor (bench/bare-server.ts, no budget) is a bare HTTP server making only the DynamoDB call: the share the HTTP hop alone leaves on this machine.',
      columns: ['operation', 'API req/s', 'API p50 / p99 ms', 'direct SDK req/s', 'direct p50 / p99 ms', 'API / direct'],
      rows,
    },
    cpuTable: {
      title: 'Where a request\'s CPU goes under load (measured round)',
      note:
        'CPU time (user + system, every thread) of each process during the slices, per request served, in ms: the caller is the bench process (autocannon for API and floor, ' +
        'the SDK calls themselves for direct), the server the local API or the floor, the engine DynamoDB Local ("–" for dynalite, which runs inside the caller, or where /proc is missing).',
      columns: ['operation', 'side', 'caller ms', 'server ms', 'engine ms', 'all ms'],
      rows: cpuRows,
    },
    checks,
  };
}
