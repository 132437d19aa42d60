/**
 * An engine left running by a server that died without stopping it (`kill -9`, a crash, an engine
 * started before the launcher watched its parent). It would keep serving the same database file next
 * to the new engine, so the one who holds the data directory's lock stops it first.
 *
 * Only an engine of this very database is touched: a process whose command line passes
 * `-dbPath <this directory>` (DynamoDB Local's own argument). Called only under the lock, so the
 * engine found cannot belong to a live server.
 */
import { listProcesses, waitForExit } from './processes';

const GRACE_MS = 3_000;

/** Pids of processes running DynamoDB Local on exactly `dbPath`. */
export function enginesOn(dbPath: string): number[] {
  return listProcesses()
    .filter(({ pid, argv }) => pid !== process.pid && argv.some((arg, index) => arg === '-dbPath' && argv[index + 1] === dbPath))
    .map(({ pid }) => pid);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return; // gone meanwhile
    if (code === 'EPERM') throw new Error(`a DynamoDB Local of another user (pid ${pid}) runs on this data directory`);
    throw error;
  }
}

/** Stops every engine found on `dbPath` (SIGTERM, then SIGKILL after a grace period); returns their pids. */
export async function stopOrphanedEngines(dbPath: string): Promise<number[]> {
  const orphans = enginesOn(dbPath);
  await Promise.all(
    orphans.map(async (pid) => {
      signal(pid, 'SIGTERM');
      if (!(await waitForExit(pid, GRACE_MS))) {
        signal(pid, 'SIGKILL');
        if (!(await waitForExit(pid, GRACE_MS))) throw new Error(`the orphaned DynamoDB Local (pid ${pid}) does not stop`);
      }
    }),
  );
  return orphans;
}
