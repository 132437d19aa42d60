import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * While `npm start` runs it owns the data directory's DynamoDB; it writes its endpoint here so the
 * keys CLI talks to that engine instead of opening the same files a second time.
 */
const ENDPOINT_FILE = 'endpoint.json';

interface EndpointRecord {
  readonly endpoint: string;
  readonly pid: number;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The endpoint of a running local server on this data directory, if there is one. */
export function readLiveEndpoint(dataDir: string): string | undefined {
  const file = join(dataDir, ENDPOINT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<EndpointRecord>;
    if (typeof record.endpoint === 'string' && typeof record.pid === 'number' && isAlive(record.pid)) return record.endpoint;
  } catch {
    // unreadable: treat like a stale file
  }
  return undefined;
}

export function writeEndpoint(dataDir: string, endpoint: string): void {
  writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint, pid: process.pid } satisfies EndpointRecord));
}

export function removeEndpoint(dataDir: string): void {
  rmSync(join(dataDir, ENDPOINT_FILE), { force: true });
}
