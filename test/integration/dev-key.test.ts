import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isWellFormedApiKey } from '#auth/api-keys';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { ensureDevKey } from '#local/identity/dev-key';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';

const db = testDocumentClient();
let keys: DynamoApiKeyRepository;
let dataDir: string;
beforeAll(async () => {
  keys = new DynamoApiKeyRepository(db, (await freshTables()).tableNames.apiKeys);
});
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'petstore-dev-key-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
afterAll(() => db.destroy());

/** Right prefix, no checksum: what a truncated copy-paste or a hand-edited file looks like. */
const malformedKey = (): string => `pst_${randomBytes(32).toString('base64url')}`;

test('a dev key file that holds no well-formed key gets a new key, which the next start keeps', async () => {
  writeFileSync(join(dataDir, 'dev-api-key'), `${malformedKey()}\n`);
  const devKey = await ensureDevKey(keys, dataDir, undefined);
  expect(devKey.source).toBe('new');
  expect(isWellFormedApiKey(devKey.key)).toBe(true);
  expect(readFileSync(join(dataDir, 'dev-api-key'), 'utf8').trim()).toBe(devKey.key);
  // The next start keeps it.
  expect(await ensureDevKey(keys, dataDir, undefined)).toEqual({ key: devKey.key, source: 'data directory' });
});

test('a malformed PETSTORE_DEV_API_KEY is refused with the form keys have', async () => {
  await expect(ensureDevKey(keys, dataDir, malformedKey())).rejects.toThrow(
    /must be pst_ followed by 51 base64url characters, with a valid checksum/,
  );
});
