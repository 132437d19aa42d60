/**
 * One engine per data directory: whoever runs an engine on a data directory (`npm start`, or the keys
 * CLI when no server runs) first takes this lock, a file naming the holder's pid and start time.
 *
 * Hand-written rather than `proper-lockfile`: that package detects a dead holder by the lock's age
 * (its holder keeps touching it), so after a `kill -9` the next start would wait out the stale period,
 * and a holder whose event loop stalls past it loses the lock. Here a lock is stale exactly when its
 * holder process is gone, which the pid plus the process's start time (against pid reuse) tell at once.
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, startTimeOf } from './processes';

const LOCK_FILE = 'engine.lock';

export interface LockHolder {
  readonly pid: number;
  /** What holds it, for messages: `npm start`, `keys CLI`, … */
  readonly purpose: string;
  readonly startTime?: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`${dataDir} is in use by ${holder.purpose} (pid ${holder.pid}); stop it first, or set PETSTORE_DATA_DIR to another directory`);
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  readonly dataDir: string;
  release(): void;
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof record.pid !== 'number' || typeof record.purpose !== 'string') return undefined;
    return { pid: record.pid, purpose: record.purpose, ...(typeof record.startTime === 'string' ? { startTime: record.startTime } : {}) };
  } catch {
    return undefined;
  }
}

/** The holder is this very process it names, still running (not another that got its pid since). */
const isLive = (holder: LockHolder): boolean =>
  isAlive(holder.pid) && (holder.startTime === undefined || startTimeOf(holder.pid) === holder.startTime);

/** The live holder of a data directory's lock, if any. */
export function lockHolder(dataDir: string): LockHolder | undefined {
  const holder = readHolder(join(dataDir, LOCK_FILE));
  return holder && isLive(holder) ? holder : undefined;
}

/** Takes the lock or throws DataDirBusyError; a lock left by a dead process is taken over. */
export function lockDataDir(dataDir: string, purpose: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const startTime = startTimeOf(process.pid);
  const mine: LockHolder = { pid: process.pid, purpose, ...(startTime !== undefined ? { startTime } : {}) };
  // Written whole under a private name, then linked into place: link(2) is atomic and fails when the
  // lock exists, so no reader ever sees a half-written lock and exactly one of two starters wins.
  const draft = `${file}.${process.pid}.draft`;
  writeFileSync(draft, JSON.stringify(mine), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, file);
        return {
          dataDir,
          release: () => {
            // Only our own lock: never remove one another process took over.
            if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(file);
      if (holder && isLive(holder)) throw new DataDirBusyError(dataDir, holder);
      // Left by a process that is gone: remove it and race for it again. Limit: two starters that both
      // read the same stale lock within microseconds of each other could both get through.
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(draft, { force: true });
  }
  const holder = readHolder(file);
  throw holder ? new DataDirBusyError(dataDir, holder) : new Error(`could not lock ${dataDir}`);
}
