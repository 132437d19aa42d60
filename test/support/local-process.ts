import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(__dirname, '../..');

/** `npm start`'s program as its own process (`node --import tsx`, so the pid is the server's). */
export interface LocalServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly petsBaseUrl: string;
  readonly origin: string;
  output(): string;
  /** Resolves with the first match of `pattern` in the output (from character `from`), once it is printed (rejects if the process ends first). */
  waitForOutput(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code once the process has ended (however it ended). */
  readonly exited: Promise<number | null>;
}

/** Every server this test process started and has not seen end: killed when the test file ends. */
const running = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills whatever server a test left running (also after a failed test); for `afterAll`. */
export async function killLeftoverServers(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((gone) => {
          child.once('exit', () => gone());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Where and how to run `local/dev/start.ts`: by default the project's own, without arguments. */
export interface LocalServerOptions {
  /** A project tree to run it in (its own local/dev/start.ts, lambda/ …). */
  readonly cwd?: string;
  readonly args?: readonly string[];
  /** Through scripts/launch.mjs, as `npm start` runs it (the pid is then the launcher's). */
  readonly viaLauncher?: boolean;
}

/** Starts `local/dev/start.ts` and collects its output; the process ends by itself if this one dies (PETSTORE_EXIT_WITH_PARENT). */
export function spawnLocalServer(
  env: Record<string, string>,
  options: LocalServerOptions = {},
): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
} {
  const program = ['--import', 'tsx', 'local/dev/start.ts', ...(options.args ?? [])];
  const argv = options.viaLauncher ? [join(PROJECT_ROOT, 'scripts/launch.mjs'), 'node', ...program] : program;
  const child = spawn(process.execPath, argv, {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: { ...process.env, PORT: '0', PETSTORE_EXIT_WITH_PARENT: '1', ...env },
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      running.delete(child);
      done(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in a child's output, as soon as it is printed. */
function outputWaiter(
  child: ChildProcessWithoutNullStreams,
  output: () => string,
  exited: Promise<number | null>,
): (pattern: RegExp, from?: number) => Promise<RegExpExecArray> {
  return (pattern, from = 0) =>
    new Promise((found, fail) => {
      const look = (): boolean => {
        const match = pattern.exec(output().slice(from));
        if (!match) return false;
        child.stdout.off('data', look);
        child.stderr.off('data', look);
        found(match);
        return true;
      };
      if (look()) return;
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      void exited.then((code) => {
        if (!look()) fail(new Error(`the process exited with ${code} before printing ${String(pattern)}:\n${output()}`));
      });
    });
}

export async function startLocalServerProcess(env: Record<string, string>, options: LocalServerOptions = {}): Promise<LocalServerProcess> {
  const { child, output, exited } = spawnLocalServer(env, options);
  const waitForOutput = outputWaiter(child, output, exited);
  const [, petsBaseUrl = ''] = await waitForOutput(/Pets base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)\n/);
  return {
    child,
    petsBaseUrl,
    origin: petsBaseUrl.replace(/\/v1$/, ''),
    output,
    waitForOutput,
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
