import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isWellFormedApiKey } from '../../lambda/shared/api-keys';
import { DynamoApiKeyRepository } from '../../lambda/shared/repositories/api-key-repository';
import { ensureDevKey } from '../../local/dev-key';
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

const oldFormatKey = (): string => `pst_${randomBytes(32).toString('base64url')}`;

test('a dev key of the format before checksums in the data directory is replaced, and says so', async () => {
  writeFileSync(join(dataDir, 'dev-api-key'), `${oldFormatKey()}\n`);
  const devKey = await ensureDevKey(keys, dataDir, undefined);
  expect(devKey).toMatchObject({ source: 'new', replaced: expect.stringMatching(/older format, which no longer works/) });
  expect(isWellFormedApiKey(devKey.key)).toBe(true);
  expect(readFileSync(join(dataDir, 'dev-api-key'), 'utf8').trim()).toBe(devKey.key);
  // The next start keeps it.
  expect(await ensureDevKey(keys, dataDir, undefined)).toEqual({ key: devKey.key, source: 'data directory' });
});

test('PETSTORE_DEV_API_KEY of the old format is refused with the form keys have now', async () => {
  await expect(ensureDevKey(keys, dataDir, oldFormatKey())).rejects.toThrow(
    /must be pst_ followed by 51 base64url characters, with a valid checksum/,
  );
});
