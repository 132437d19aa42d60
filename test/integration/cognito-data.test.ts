/**
 * The Cognito emulator's data directory holds every test user's password and refresh tokens in clear (cognito-local
 * stores them so): its folders are the owner's alone (0700) and its files readable by the owner only (0600), those
 * left world-readable by an earlier version included.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCognito } from '#local/identity/cognito';
import { newUser } from '../support/cognito-users';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'petstore-cognito-data-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

test("cognito/ and its files are the owner's alone, once a user signed up, whatever modes an earlier version left", async () => {
  const db = join(dataDir, 'cognito', 'db');
  mkdirSync(db, { recursive: true, mode: 0o755 });
  writeFileSync(join(db, 'clients.json'), '{}', { mode: 0o644 });
  const cognito = await startLocalCognito({ dataDir });
  try {
    const user = await newUser({ cognito }, 'Test-Password-42');
    expect([modeOf(join(dataDir, 'cognito')), modeOf(db)]).toEqual(['700', '700']);
    const files = readdirSync(db);
    expect(files).toEqual(expect.arrayContaining(['clients.json', `${cognito.userPoolId}.json`]));
    for (const file of files) expect([file, modeOf(join(db, file))]).toEqual([file, '600']);
    // What the modes guard: the password, in clear.
    expect(readFileSync(join(db, `${cognito.userPoolId}.json`), 'utf8')).toContain(user.password);
  } finally {
    await cognito.stop();
  }
});
