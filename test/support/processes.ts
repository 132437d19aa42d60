/** What tests need to see of other processes: the DynamoDB Local engines of a data directory, and an exit. */
import { readdirSync, readFileSync } from 'node:fs';
import { isAlive } from '#local/engine/processes';

/** Pids of processes running DynamoDB Local on exactly `dbPath` (its own `-dbPath` argument), from /proc. */
export function enginesOn(dbPath: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
        return argv.some((arg, index) => arg === '-dbPath' && argv[index + 1] === dbPath) && isAlive(Number(name)) ? [Number(name)] : [];
      } catch {
        return []; // ended meanwhile
      }
    });
}

/**
 * Resolves once the process is gone, or with `false` after `timeoutMs` (a ceiling for a hang, not a schedule).
 * Polls its state: the processes waited for here are not this process's children (DynamoDB Local is the
 * child of a server that was killed), so no exit event reaches us, and Node has no pidfd.
 */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return true;
}
