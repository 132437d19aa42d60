/**
 * The local server's functions in a worker thread (local/dev/function-worker.ts): a timed-out invocation ends the worker,
 * as Lambda stops the function, and the next one gets a fresh worker. `npm run dev` also replaces it when lambda/
 * changes (ES modules cannot be unloaded): the old worker serves until the new one has loaded, then ends once idle;
 * a spare waits with the packages loaded. A change under local/ or shared/ goes to `onEmulatorChange`.
 */
import { once } from 'node:events';
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Context } from 'aws-lambda';
import type { FunctionName } from '#shared/table-access';
import type { Invocation, WorkerReply } from './function-worker';
import { gatewayFunctions, type GatewayFunctions } from '#local/gateway/functions';

/** Editors write several times per save: a reload starts once the files have been quiet this long. */
const QUIET_MS = 80;
const ROOT = resolve(import.meta.dirname, '../..');

interface FunctionsWorker {
  readonly worker: Worker;
  readonly ready: Promise<FunctionsWorker>;
  readonly calls: Map<number, { done: (result: unknown) => void; fail: (error: Error) => void }>;
  state: 'spare' | 'serving' | 'retired' | 'ended';
  endedBecause?: string;
}

/** A spare worker: it loads the packages, then waits for load(). `onCrash` if it ends unasked once loaded. */
function spawnWorker(onCrash: (crashed: FunctionsWorker, why: string) => void): FunctionsWorker {
  // Named for jest: it has no TypeScript loader to pass on, and its own copy of the environment.
  const worker = new Worker(new URL('./function-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'], env: process.env });
  const { promise: ready, resolve, reject } = Promise.withResolvers<FunctionsWorker>();
  ready.catch(() => undefined); // a spare may end unused
  const running: FunctionsWorker = { worker, ready, calls: new Map(), state: 'spare' };
  let crash = '';
  worker.on('message', (reply: WorkerReply) => {
    if ('ready' in reply) {
      running.state = 'serving';
      resolve(running);
    } else if ('failed' in reply) {
      void worker.terminate();
      reject(new Error(reply.failed));
    } else answer(running, reply);
  });
  worker.on('error', (error: Error) => (crash = error.message));
  worker.on('exit', (code) => {
    const why = running.endedBecause ?? (crash || `exit code ${code}`);
    for (const call of running.calls.values()) call.fail(new Error(`the functions' worker ended (${why})`));
    reject(new Error(why));
    if (running.state === 'serving') onCrash(running, why);
    running.state = 'ended';
  });
  return running;
}

const load = (spare: FunctionsWorker): Promise<FunctionsWorker> => {
  spare.worker.postMessage('load');
  return spare.ready;
};

function answer(running: FunctionsWorker, reply: Extract<WorkerReply, { id: number }>): void {
  const call = running.calls.get(reply.id);
  running.calls.delete(reply.id);
  if ('error' in reply) call?.fail(new Error(reply.error));
  else call?.done(reply.result);
  endIfIdle(running);
}

/** A retired worker ends once its last invocation has answered (or timed out). */
function endIfIdle(running: FunctionsWorker): void {
  if (running.state === 'retired' && running.calls.size === 0) void running.worker.terminate();
}

const watchers = new Map<string, FSWatcher>();
/** Changed .ts/.json files and new directories under `dir`: one fs.watch per directory (Node's recursive one loses renamed files on Linux). */
function watchTree(dir: string, onChange: (file: string) => void): void {
  watchers.get(dir)?.close();
  const watcher = watch(dir, (_event, name) => {
    const path = join(dir, name ?? '');
    const file = relative(ROOT, path).replaceAll('\\', '/');
    if (/\.(ts|json)$/.test(file)) onChange(file);
    else if (name && statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      watchTree(path, onChange);
      onChange(`${file}/`);
    }
  });
  watcher.on('error', () => watcher.close());
  watchers.set(dir, watcher);
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) watchTree(join(dir, entry.name), onChange);
}

const listed = (files: ReadonlySet<string>): string =>
  [...files].slice(0, 3).join(', ') + (files.size > 3 ? ` and ${files.size - 3} more` : '') + ' changed';

export interface WorkerFunctionsOptions {
  /** `npm run dev`: reload the functions when lambda/ changes. */
  readonly watch?: boolean;
  readonly onEmulatorChange?: ((files: readonly string[]) => void) | undefined;
  readonly log?: (line: string) => void;
}

/** Call it once the environment is set: the worker copies it. */
export async function reloadingFunctions({
  watch: watching = false,
  onEmulatorChange,
  log = console.log,
}: WorkerFunctionsOptions = {}): Promise<GatewayFunctions & { close(): Promise<void> }> {
  let closed = false;
  const onCrash = (crashed: FunctionsWorker, why: string): void => {
    if (closed || crashed !== current) return;
    log(`The functions' worker ended (${why}): loading the functions again`);
    if (!starting) reload(new Set());
  };
  let current = await load(spawnWorker(onCrash));
  const spawnSpare = (): FunctionsWorker | undefined => (watching ? spawnWorker(onCrash) : undefined);
  let spare = spawnSpare();
  let starting: Promise<FunctionsWorker> | undefined;

  const reload = (files: ReadonlySet<string>): void => {
    const started = performance.now();
    const why = files.size > 0 ? listed(files) : 'after a crash';
    starting = load(spare && spare.state !== 'ended' ? spare : spawnWorker(onCrash));
    starting
      .then(
        (fresh) => {
          current.state = 'retired';
          endIfIdle(current);
          current = fresh;
          log(`Reloaded the functions (${why}) in ${Math.round(performance.now() - started)} ms`);
        },
        (error: unknown) => {
          const problem = (error as Error).message.replaceAll(`${ROOT}/`, '');
          log(`The functions did not reload (${why}): still serving the previous code. ${problem}`);
        },
      )
      .finally(() => {
        starting = undefined;
        if (closed) return;
        spare = spawnSpare();
        settled(); // what changed meanwhile
      });
  };

  let quiet: NodeJS.Timeout | undefined;
  let changed = new Set<string>();
  const settled = (): void => {
    const local = [...changed].filter((file) => file.startsWith('local/') || file.startsWith('shared/'));
    if (local.length > 0 && onEmulatorChange) {
      onEmulatorChange(local);
      return;
    }
    if (local.length > 0) log(`${local.join(', ')} changed: the emulator itself reloads only on restart (Ctrl-C, then npm run dev)`);
    changed = new Set([...changed].filter((file) => file.startsWith('lambda/')));
    if (changed.size === 0 || starting) return;
    reload(changed);
    changed = new Set();
  };
  for (const dir of watching ? ['lambda', 'shared', 'local'] : []) {
    watchTree(join(ROOT, dir), (file) => {
      changed.add(file);
      clearTimeout(quiet);
      quiet = setTimeout(settled, QUIET_MS);
    });
  }

  let nextId = 0;
  const invoke = async (name: FunctionName, event: unknown, context: Context): Promise<unknown> => {
    // A worker being ended takes no more invocations; after a crash or a timeout, the worker being started does (its failure is a 500).
    if (current.endedBecause !== undefined && current.state !== 'ended') await once(current.worker, 'exit');
    const running = current.state === 'ended' && starting ? await starting : current;
    if (running.state === 'ended') throw new Error("the functions' worker has ended");
    const timeoutMs = context.getRemainingTimeInMillis();
    const invocation: Invocation = { id: nextId++, name, event, awsRequestId: context.awsRequestId, deadline: Date.now() + timeoutMs };
    running.worker.postMessage(invocation);
    const answered = new Promise((done, fail) => running.calls.set(invocation.id, { done, fail }));
    const timer = setTimeout(() => {
      running.endedBecause ??= `${name} timed out after ${timeoutMs} ms`;
      void running.worker.terminate();
    }, timeoutMs);
    return answered.finally(() => clearTimeout(timer));
  };
  return {
    ...gatewayFunctions((name) => (event, context) => invoke(name, event, context)),
    close: async () => {
      closed = true;
      clearTimeout(quiet);
      for (const watcher of watchers.values()) watcher.close();
      await Promise.all([current.worker.terminate(), spare?.worker.terminate()]);
    },
  };
}
