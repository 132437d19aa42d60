/**
 * Keeps the local engine running: when it dies on its own, start it again (same data, same port, so
 * the functions' endpoint stays valid), with a growing pause between attempts. Requests meanwhile get
 * the functions' 503 `service_unavailable` with `Retry-After`, as for any database outage. An engine
 * that keeps dying is given up (the caller decides what that means; `npm start` exits non-zero).
 */

export interface Supervision {
  /** Called once, when the engine died more than `maxRestarts` times within `windowMs`. */
  readonly onGiveUp: (error: Error) => void;
  readonly maxRestarts?: number;
  readonly windowMs?: number;
}

export interface Supervised {
  readonly pid: number | undefined;
  /** Resolves, with a description whose first line says how, when the process ends. */
  readonly exited: Promise<string>;
}

export interface SupervisorOptions<T extends Supervised> extends Supervision {
  readonly first: T;
  /** Starts the engine again and resolves once it answers. */
  readonly restart: () => Promise<T>;
  readonly log: (line: string) => void;
}

const DEFAULT_MAX_RESTARTS = 5;
const DEFAULT_WINDOW_MS = 60_000;
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 4_000;

const firstLine = (text: string): string => text.split('\n')[0] ?? text;

export function superviseRestarts<T extends Supervised>(options: SupervisorOptions<T>): { stop(): Promise<void> } {
  const { restart, log, onGiveUp } = options;
  const maxRestarts = options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const deaths: number[] = [];
  let stopped = false;
  let recovering: Promise<void> = Promise.resolve();

  const recover = async (dead: T, how: string): Promise<void> => {
    const diedAt = Date.now();
    log(`DynamoDB Local (pid ${dead.pid ?? '?'}) died (${firstLine(how)}); requests answer 503 until it is back`);
    for (let cause = how; ;) {
      const now = Date.now();
      deaths.push(now);
      while ((deaths[0] ?? now) < now - windowMs) deaths.shift();
      if (deaths.length > maxRestarts) {
        const error = new Error(
          `DynamoDB Local died ${deaths.length} times within ${windowMs / 1000} s; not restarting it again. Last:\n${cause}`,
        );
        log(`DynamoDB Local keeps dying (${deaths.length} times within ${windowMs / 1000} s); giving up`);
        onGiveUp(error);
        return;
      }
      await new Promise((wake) => setTimeout(wake, Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (deaths.length - 1))));
      if (stopped) return;
      try {
        const next = await restart();
        log(`DynamoDB Local restarted (pid ${next.pid ?? '?'}) on the same data and port, ${Date.now() - diedAt} ms after it died`);
        watch(next);
        return;
      } catch (error) {
        cause = error instanceof Error ? error.message : String(error);
        log(`restarting DynamoDB Local failed (${firstLine(cause)})`);
      }
    }
  };

  const watch = (engine: T): void => {
    void engine.exited.then((how) => {
      if (!stopped) recovering = recover(engine, how);
    });
  };
  watch(options.first);

  return {
    // Resolves once no restart is under way, so the caller stops the engine that really runs.
    stop: async () => {
      stopped = true;
      await recovering;
    },
  };
}
