import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

export const PROJECT_ROOT = resolve(__dirname, '../..');

/** `npm start`'s program as its own process (`node --import tsx`, so the pid is the server's). */
export interface LocalServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly petsBaseUrl: string;
  readonly origin: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startLocalServerProcess(env: Record<string, string>): Promise<LocalServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', ...env },
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const petsBaseUrl = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`no pets base URL printed:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Pets base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)\n/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        ready(match[1]);
      }
    });
    void exited.then((code) => fail(new Error(`the local server exited with ${code}:\n${output}`)));
  });
  return {
    child,
    petsBaseUrl,
    origin: petsBaseUrl.replace(/\/v1$/, ''),
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
