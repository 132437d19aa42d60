/**
 * CPU time (user + system, every thread) of this process and of others by pid, so part 3 can say
 * where a request's CPU goes: the caller (autocannon or the direct SDK calls), the server, the
 * DynamoDB engine. Other processes are read from /proc, so only on Linux; elsewhere they are unknown.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** /proc/<pid>/stat counts in clock ticks; 100 per second on every Linux unless getconf says else. */
const TICKS_PER_SECOND = ((): number => {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself hold spaces: utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
  } catch {
    return undefined;
  }
}
