/**
 * scripts/launch.mjs, which every npm script goes through, as a process manager sees it: a signal sent to
 * its pid alone reaches the tool it runs (also when it first re-runs itself under Node 24), and it ends as
 * the tool ends, with its exit code or killed by the same signal. Waits are on output and exit events; the
 * ceilings only turn a hang into a failure.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../support/local-process';

const LAUNCHER = join(ROOT, 'scripts/launch.mjs');
const NODE_24 = join(ROOT, '.tools/node24/node_modules/.bin/node');
const CEILING_MS = 30_000;

/** The tool: says which process it is, then waits; a stopping signal it is sent is reported and ends it with 0. */
const TOOL = `
for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT']) process.on(signal, () => { console.log('got ' + signal); process.exit(0); });
console.log('READY ' + process.pid + ' ' + process.ppid);
setInterval(() => {}, 1 << 30);
`;

interface Launched {
  readonly launcher: ChildProcessWithoutNullStreams;
  output(): string;
  /** How the launcher ended. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every pid a test saw (launchers, tools): whatever is still running when the test ends is killed. */
const seen = new Set<number>();
afterEach(() => {
  for (const pid of seen) if (exists(pid)) process.kill(pid, 'SIGKILL');
  seen.clear();
});

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<node> scripts/launch.mjs <this Node> -e <script>`, with pipes for stdio (so no terminal). */
function launch(script: string, node = process.execPath): Launched {
  const launcher = spawn(node, [LAUNCHER, process.execPath, '-e', script], { cwd: ROOT });
  if (launcher.pid !== undefined) seen.add(launcher.pid);
  let output = '';
  launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    launcher.once('exit', (code, signal) => done({ code, signal })),
  );
  return { launcher, output: () => output, ended };
}

/** Resolves on `pattern` in the output; fails if the launcher ends first or nothing comes within the ceiling. */
function waitForOutput(launched: Launched, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((found, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`nothing matched ${pattern} within ${CEILING_MS} ms:\n${launched.output()}`)),
      CEILING_MS,
    );
    const look = (): void => {
      const match = pattern.exec(launched.output());
      if (!match) return;
      clearTimeout(timer);
      launched.launcher.stdout.off('data', look);
      found(match);
    };
    launched.launcher.stdout.on('data', look);
    look();
    void launched.ended.then((ending) => {
      clearTimeout(timer);
      fail(new Error(`the launcher ended (${JSON.stringify(ending)}) before printing ${pattern}:\n${launched.output()}`));
    });
  });
}

/** The tool's pid and its parent's (the launcher that started it), once it is running. */
async function toolStarted(launched: Launched): Promise<{ tool: number; parent: number }> {
  const [, tool, parent] = (await waitForOutput(launched, /READY (\d+) (\d+)\n/)).map(Number);
  if (tool === undefined || parent === undefined) throw new Error('unreachable: the pattern has two groups');
  seen.add(tool).add(parent);
  return { tool, parent };
}

/** How the launcher ended; fails if it is still running at the ceiling. */
function endOf(launched: Launched): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the launcher still runs after ${CEILING_MS} ms:\n${launched.output()}`)), CEILING_MS);
    void launched.ended.then((ending) => {
      clearTimeout(timer);
      done(ending);
    });
  });
}

/** A Node older than 22 outside .tools (the PATH jest has, then the usual places), with its version. */
function findOldNode(): { path: string; version: string } | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && !dir.startsWith(join(ROOT, '.tools')));
  for (const path of [...dirs.map((dir) => join(dir, 'node')), '/usr/local/bin/node', '/usr/bin/node', '/bin/node']) {
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < 22) return { path, version };
  }
  return undefined;
}

test.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
  '%s sent to the launcher pid alone reaches the tool, which ends; the launcher exits with its code (0) and leaves nothing running',
  async (signal) => {
    const launched = launch(TOOL);
    const { tool, parent } = await toolStarted(launched);
    expect(parent).toBe(launched.launcher.pid);

    launched.launcher.kill(signal);
    expect(await endOf(launched)).toEqual({ code: 0, signal: null });
    expect(launched.output()).toContain(`got ${signal}\n`);
    // The launcher reaps the tool before it exits: the pid is gone, not a zombie.
    expect(exists(tool)).toBe(false);
  },
  60_000,
);

test('a tool exiting with 3 makes the launcher exit with 3', async () => {
  const launched = launch('process.exit(3)');
  expect(await endOf(launched)).toEqual({ code: 3, signal: null });
}, 60_000);

test('a tool killed by a signal it cannot handle (SIGKILL) gets the launcher killed by the same signal', async () => {
  const launched = launch(TOOL);
  const { tool } = await toolStarted(launched);
  process.kill(tool, 'SIGKILL');
  expect(await endOf(launched)).toEqual({ code: null, signal: 'SIGKILL' });
  expect(launched.output()).not.toContain('got ');
}, 60_000);

const oldNode = existsSync(NODE_24) ? findOldNode() : undefined;
test(
  oldNode
    ? `under Node ${oldNode.version} (${oldNode.path}) the launcher re-runs itself under .tools/node24, and SIGTERM to the outer launcher's pid ends the inner launcher and the tool`
    : 'no Node older than 22 (or no .tools/node24) here, so the re-run under Node 24 is not exercised: SIGTERM to the launcher pid ends the tool, run again',
  async () => {
    const launched = launch(TOOL, oldNode?.path);
    const { tool, parent } = await toolStarted(launched);
    // Re-run under Node 24: the tool's parent is the inner launcher, not the one this test started.
    if (oldNode) expect(parent).not.toBe(launched.launcher.pid);

    launched.launcher.kill('SIGTERM');
    expect(await endOf(launched)).toEqual({ code: 0, signal: null });
    expect(launched.output()).toContain('got SIGTERM\n');
    expect(exists(tool)).toBe(false);
    expect(exists(parent)).toBe(false);
  },
  60_000,
);
