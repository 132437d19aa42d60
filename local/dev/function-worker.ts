/**
 * A functions' worker (local/dev/reloading-functions.ts): as a spare it imports the handlers' packages (most of the
 * loading time), then, told to, the handlers, and runs one per message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FunctionName } from '#shared/table-access';

/** The context has functions: only what rebuilds it crosses the thread (deadline: epoch ms). */
export type Invocation = { id: number; name: FunctionName; event: unknown; awsRequestId: string; deadline: number };
export type WorkerReply = { ready: true } | { failed: string } | { id: number; result: unknown } | { id: number; error: string };

if (!parentPort) throw new Error('local/dev/function-worker.ts runs in a worker thread');
const port = parentPort;
const reply = (message: WorkerReply): void => port.postMessage(message);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const LAMBDA = join(import.meta.dirname, '../../lambda');
const packages = new Set<string>();
for (const file of readdirSync(LAMBDA, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
  for (const [, name] of readFileSync(join(LAMBDA, file), 'utf8').matchAll(/^import (?!type )[^;]*? from '([^.'][^']*)'/gm))
    if (name) packages.add(name);
}
await Promise.allSettled([...packages].map((name) => import(name)));

/** The project's modules load only now. */
async function serve(): Promise<void> {
  const [{ loadHandlers }, { lambdaContext }] = await Promise.all([import('#local/gateway/functions'), import('#shared/gateway-events')]);
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
