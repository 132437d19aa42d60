import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockHolder } from './data-dir-lock';

/**
 * While `npm start` runs it owns the data directory's DynamoDB (it holds the directory's lock); it
 * writes its endpoint here so the keys CLI talks to that engine instead of starting a second one.
 */
const ENDPOINT_FILE = 'endpoint.json';

interface EndpointRecord {
  readonly endpoint: string;
  readonly pid: number;
}

/** The endpoint of a running local server on this data directory: written by the live lock holder. */
export function readLiveEndpoint(dataDir: string): string | undefined {
  const file = join(dataDir, ENDPOINT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<EndpointRecord>;
    if (typeof record.endpoint === 'string' && record.pid !== undefined && record.pid === lockHolder(dataDir)?.pid) return record.endpoint;
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
