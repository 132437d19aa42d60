/** The user pool deleteAccount's first request reaches in part 1: cognito-local, as `npm start` runs it, in its own process. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';

export interface BenchUserPool {
  readonly endpoint: string;
  readonly userPoolId: string;
  stop(): Promise<void>;
}

export async function startBenchUserPool(): Promise<BenchUserPool> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'user-pool-process.ts')], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout }), 'line'), exited.then(() => [undefined])])) as [
    string | undefined,
  ];
  if (line === undefined) throw new Error(`the Cognito stand-in exited before it listened (${String(child.exitCode)})`);
  const { endpoint, userPoolId } = JSON.parse(line) as { endpoint: string; userPoolId: string };
  return {
    endpoint,
    userPoolId,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
