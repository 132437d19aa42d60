/**
 * The embedded database's files are the owner's alone, as the dev key and the user pool's files beside them are:
 * whichever engine runs, the data directory and the engine's folder are 0700 and every file in them 0600, those of
 * an older data directory (written 0644) included.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseEngine, type EngineName } from '#local/engine/dynamodb-engine';
import { openLocalStore } from '#local/engine/local-store';

/** Every path under `folder` (itself included) with its permission bits, as `ls -l` would show them. */
const modesUnder = (folder: string): Record<string, string> => {
  const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
  return {
    '.': mode(folder),
    ...Object.fromEntries(readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((path) => [path, mode(join(folder, path))])),
  };
};

const engines: EngineName[] = chooseEngine() === 'dynamodb-local' ? ['dynamodb-local', 'dynalite'] : ['dynalite'];

test.each(engines)(
  '%s: the data directory and its engine folder 0700, every file 0600',
  async (engine) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petstore-modes-'));
    try {
      // A data directory from before: a file written with the usual umask.
      mkdirSync(join(dataDir, engine), { mode: 0o755 });
      writeFileSync(join(dataDir, engine, 'older'), '', { mode: 0o644 });
      const store = await openLocalStore({ dataDir, engine, owner: 'test' });
      await store.stop();
      const modes = modesUnder(dataDir);
      // The engine wrote its own files (DynamoDB Local's SQLite file, LevelDB's), not only the older one.
      expect(Object.keys(modes).filter((path) => path.startsWith(`${engine}/`) && path !== `${engine}/older`)).not.toEqual([]);
      const ownerOnly = Object.keys(modes).map((path) => [path, statSync(join(dataDir, path)).isDirectory() ? '700' : '600']);
      expect(modes).toEqual(Object.fromEntries(ownerOnly));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  120_000,
);
