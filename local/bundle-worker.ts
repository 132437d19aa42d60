/**
 * One function of a synthesized stage (local/rehearsal.ts) in a worker thread of its own, so that it sees only the
 * environment its template gives it, as in its Lambda sandbox. Plain Node (type stripping, no tsx, no project
 * import): the bundle is required as Lambda's runtime requires it. Loading it is the init phase (an error there ends
 * the worker); then one invocation per message.
 */
import type { Context } from 'aws-lambda';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

/** What crosses the thread boundary: the context without its functions, which the deadline (epoch ms) rebuilds. */
export type BundleInvocation = { id: number; event: unknown; context: Partial<Context>; deadline: number };
export type BundleReply = { id: number; result: unknown } | { id: number; error: string };
export interface BundleWorkerData {
  /** The unpacked asset, and the template's `Handler` (`index.handler`: module, then export). */
  readonly dir: string;
  readonly handler: string;
}

const { dir, handler } = workerData as BundleWorkerData;
const dot = handler.lastIndexOf('.');
const run: unknown = (createRequire(join(dir, 'bundle')) as (id: string) => Record<string, unknown>)(`./${handler.slice(0, dot)}`)[
  handler.slice(dot + 1)
];
if (typeof run !== 'function') throw new Error(`the bundle has no function ${handler}`);
const port = parentPort;
port?.on('message', ({ id, event, context, deadline }: BundleInvocation) => {
  const getRemainingTimeInMillis = () => Math.max(0, deadline - Date.now());
  Promise.resolve()
    .then(() => (run as (e: unknown, c: unknown) => unknown)(event, { ...context, getRemainingTimeInMillis }))
    .then(
      (result) => port.postMessage({ id, result } satisfies BundleReply),
      (error: unknown) =>
        port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies BundleReply),
    );
});
