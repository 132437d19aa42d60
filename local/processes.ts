/**
 * What the local server needs to know about other processes: whether one is alive, whether it is the
 * same process as before (a pid can be reused), and its command line. Linux answers from /proc;
 * elsewhere `ps` answers what it can, and what it cannot is `undefined` (callers then do nothing
 * destructive).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const HAS_PROC = existsSync('/proc/self/stat');

/** Running: it exists and has not ended (a zombie, ended but not yet reaped by its parent, has). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return HAS_PROC ? statFields(pid)?.[0] !== 'Z' : true;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When the process started, as an opaque token that differs between two processes that had the same
 * pid. `undefined` where the platform does not tell (then only liveness can be checked).
 */
export function startTimeOf(pid: number): string | undefined {
  if (HAS_PROC) return statFields(pid)?.[19]; // field 22, starttime in clock ticks since boot
  const result = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
  const text = result.status === 0 ? result.stdout.trim() : '';
  return text === '' ? undefined : text;
}

/** The parent pid of this process now (Node's `process.ppid` is read once, at start-up). */
export function currentParentPid(): number | undefined {
  const ppid = HAS_PROC ? statFields('self')?.[1] : undefined;
  return ppid === undefined ? undefined : Number(ppid);
}

export interface ProcessInfo {
  readonly pid: number;
  /** argv, exactly where /proc tells; elsewhere `ps`'s space-joined command split on spaces. */
  readonly argv: readonly string[];
}

/** Every process this user can see, with its command line. */
export function listProcesses(): ProcessInfo[] {
  if (HAS_PROC) {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => {
        try {
          const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').slice(0, -1);
          return argv.length > 0 ? [{ pid: Number(name), argv }] : [];
        } catch {
          return []; // ended meanwhile, or not ours to read
        }
      });
  }
  const result = spawnSync('ps', ['-axww', '-o', 'pid=,command='], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  return result.stdout.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    return match?.[1] && match[2] ? [{ pid: Number(match[1]), argv: match[2].split(' ') }] : [];
  });
}

/** Resolves once the process is gone, or with `false` after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return true;
}
