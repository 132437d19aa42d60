/**
 * One engine per data directory: whoever runs one there (`npm start`, the keys CLI) first takes this lock, a file
 * naming its pid and start time. Not `proper-lockfile`: it judges a holder dead by the lock's age, so a start after
 * `kill -9` waits out the stale period; here a lock is stale exactly when its holder process is gone.
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, startTimeOf } from './processes';

const LOCK_FILE = 'engine.lock';

export interface LockHolder {
  readonly pid: number;
  /** For messages: `npm start`, `keys CLI`, … */
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

/** The very process it names is still running (not another that got its pid since). */
const isLive = (holder: LockHolder): boolean =>
  isAlive(holder.pid) && (holder.startTime === undefined || startTimeOf(holder.pid) === holder.startTime);

export function lockHolder(dataDir: string): LockHolder | undefined {
  const holder = readHolder(join(dataDir, LOCK_FILE));
  return holder && isLive(holder) ? holder : undefined;
}

/** What the lock holder notes in the data directory for others (e.g. where its emulators listen). */
export const writeHolderNote = (dataDir: string, file: string, note: object): void =>
  writeFileSync(join(dataDir, file), JSON.stringify({ ...note, pid: process.pid }));

/** A note, trusted only while the process that wrote it holds the lock (a pid alone may be reused). */
export function readHolderNote<T extends object>(dataDir: string, file: string): Partial<T> | undefined {
  try {
    const note = JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as Partial<T> & { pid?: unknown };
    return typeof note.pid === 'number' && note.pid === lockHolder(dataDir)?.pid ? note : undefined;
  } catch {
    return undefined;
  }
}

/** A lock left by a dead process is taken over. */
export function lockDataDir(dataDir: string, purpose: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const startTime = startTimeOf(process.pid);
  const mine: LockHolder = { pid: process.pid, purpose, ...(startTime !== undefined ? { startTime } : {}) };
  // Written whole under a private name, then linked into place: link(2) is atomic and fails when the lock exists.
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
      // Left by a process that is gone: remove it and race again (two starters reading it in the same instant both pass).
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(draft, { force: true });
  }
  const holder = readHolder(file);
  throw holder ? new DataDirBusyError(dataDir, holder) : new Error(`could not lock ${dataDir}`);
}
