/** Whether another process is alive and the same as before (pids are reused): from /proc on Linux, else `ps`. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const HAS_PROC = existsSync('/proc/self/stat');

/** Exists and is no zombie. */
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

/** When the process started, as an opaque token; `undefined` where the platform does not tell. */
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
