/**
 * `npm run dev`'s functions (local/reloading-functions.ts). A worker starts as a spare: it imports the packages
 * the handlers import (most of the loading time, and they do not change), then, told to, the handlers
 * themselves, says so, and runs one handler per message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FunctionName } from '#shared/table-access';

/** What crosses the thread boundary: the context has functions, so only what rebuilds it does (deadline: epoch ms). */
export type Invocation = { id: number; name: FunctionName; event: unknown; awsRequestId: string; deadline: number };
export type WorkerReply = { ready: true } | { failed: string } | { id: number; result: unknown } | { id: number; error: string };

if (!parentPort) throw new Error('local/function-worker.ts runs in a worker thread');
const port = parentPort;
const reply = (message: WorkerReply): void => port.postMessage(message);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const LAMBDA = join(import.meta.dirname, '..', 'lambda');
const packages = new Set<string>();
for (const file of readdirSync(LAMBDA, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
  for (const [, name] of readFileSync(join(LAMBDA, file), 'utf8').matchAll(/^import (?!type )[^;]*? from '([^.'][^']*)'/gm))
    if (name) packages.add(name);
}
// Type-only packages (aws-lambda) do not load: no matter, the handlers never import them at run time.
await Promise.allSettled([...packages].map((name) => import(name)));

/** Loads the handlers, then runs one per message. The project's modules (local/ ones import lib/) load only now. */
async function serve(): Promise<void> {
  const [{ loadHandlers }, { lambdaContext }] = await Promise.all([import('./functions'), import('./gateway')]);
  const handlers = await loadHandlers();
  const run = async ({ name, event, awsRequestId, deadline }: Invocation): Promise<unknown> => {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`shared/deployed-functions.ts has no function ${name}`);
    return handler(event, { ...lambdaContext(name, deadline - Date.now()), awsRequestId });
  };
  port.on('message', (invocation: Invocation) => {
    run(invocation)
      // A result that cannot be cloned fails like a thrown error: the gateway answers 500.
      .then((result) => reply({ id: invocation.id, result }))
      .catch((error: unknown) => reply({ id: invocation.id, error: messageOf(error) }));
  });
  reply({ ready: true });
}
port.once('message', () => void serve().catch((error: unknown) => reply({ failed: messageOf(error) })));
