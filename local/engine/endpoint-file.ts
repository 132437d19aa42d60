import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readHolderNote, writeHolderNote } from './data-dir-lock';

/** `npm start` notes its engine's endpoint, so the keys CLI talks to that engine rather than start a second one. */
const ENDPOINT_FILE = 'endpoint.json';

export function readLiveEndpoint(dataDir: string): string | undefined {
  const { endpoint } = readHolderNote<{ endpoint: unknown }>(dataDir, ENDPOINT_FILE) ?? {};
  return typeof endpoint === 'string' ? endpoint : undefined;
}

export const writeEndpoint = (dataDir: string, endpoint: string): void => writeHolderNote(dataDir, ENDPOINT_FILE, { endpoint });

export const removeEndpoint = (dataDir: string): void => rmSync(join(dataDir, ENDPOINT_FILE), { force: true });
