/**
 * `kill -TERM <npm's pid>`, as a process manager or an IDE's stop button does it, ends the whole tree `npm start` and
 * `npm run dev` started: npm passes the signal to its child only, so that child must be the launcher itself (the
 * scripts `exec` it: a shell in between died of the signal and left the launcher, the server and the engine running).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockHolder } from '#local/engine/data-dir-lock';
import { PROJECT_ROOT as ROOT } from '../support/local-process';
import { enginesOn, waitForExit } from '../support/processes';

/** Ceiling for a hang on a busy machine, not a budget. */
const PROCESS_TEST_MS = 180_000;

const directories: string[] = [];
afterAll(async () => {
  // Whatever a failed test left: its server holds the lock; ended, it takes its engine and launchers with it.
  for (const dataDir of directories) {
    const holder = lockHolder(dataDir);
    if (holder) {
      process.kill(holder.pid, 'SIGTERM');
      await waitForExit(holder.pid, 30_000);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

/** Whether something accepts connections on the port: resolves on the connection's first event. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((answered) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answered(true);
    });
    socket.once('error', () => answered(false));
  });

test.each(['start', 'run dev'])(
  'SIGTERM to the pid of `npm %s` frees the port and the data directory',
  async (script) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-npm-sigterm-'));
    directories.push(dataDir);
    const npm = spawn('npm', script.split(' '), { cwd: ROOT, env: { ...process.env, PORT: '0', PETSTORE_DATA_DIR: dataDir } });
    let output = '';
    const exited = new Promise<void>((ended) => npm.once('exit', () => ended()));
    const port = await new Promise<number>((listening, fail) => {
      const look = (chunk: Buffer): void => {
        output += chunk.toString();
        const [, found] = /Pets base URL: http:\/\/127\.0\.0\.1:(\d+)\/v1\n/.exec(output) ?? [];
        if (found) listening(Number(found));
      };
      npm.stdout.on('data', look);
      npm.stderr.on('data', look);
      void exited.then(() => fail(new Error(`npm ended before serving:\n${output}`)));
    });
    expect(await accepts(port)).toBe(true);
    const server = lockHolder(dataDir);
    expect(server).toBeDefined();

    npm.kill('SIGTERM');
    await exited;
    expect({ listening: await accepts(port), lockHeld: existsSync(join(dataDir, 'engine.lock')) }).toEqual({
      listening: false,
      lockHeld: false,
    });
    expect(enginesOn(join(dataDir, 'dynamodb-local'))).toEqual([]);
  },
  PROCESS_TEST_MS,
);
