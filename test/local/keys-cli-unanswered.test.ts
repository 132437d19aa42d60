/**
 * `npm run keys` beside a running server whose database accepts connections and never answers (a stopped or stuck
 * engine): the command ends non-zero with a message that names the database's endpoint and what to check, not
 * the SDK's bare timeout line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir, type DataDirLock } from '#local/engine/data-dir-lock';
import { writeEndpoint } from '#local/engine/endpoint-file';
import { PROJECT_ROOT as ROOT } from '../support/local-process';

const TSX = join(ROOT, 'node_modules/.bin/tsx');

let dataDir: string;
let lock: DataDirLock;
let silent: Server;
let endpoint: string;
const held: Socket[] = [];
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'petstore-keys-unanswered-'));
  // Accepts every connection and never answers, as an engine stopped with SIGSTOP would.
  silent = createServer((socket) => void held.push(socket));
  await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', () => listening()));
  endpoint = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  // This process stands in for `npm start`: it holds the data directory and notes its engine's endpoint.
  lock = lockDataDir(dataDir, 'npm start');
  writeEndpoint(dataDir, endpoint);
});
afterAll(async () => {
  lock.release();
  for (const socket of held) socket.destroy();
  await new Promise((closed) => silent.close(closed));
  rmSync(dataDir, { recursive: true, force: true });
});

test('create against a database that never answers exits 1 naming its endpoint, the server holding it and what to check', async () => {
  const child = spawn(TSX, ['scripts/keys.ts', 'create', '--account', 'acct_slow'], {
    cwd: ROOT,
    // Short SDK timeouts: the command gives up in about a second instead of seven.
    env: { ...process.env, PETSTORE_DATA_DIR: dataDir, DYNAMODB_REQUEST_TIMEOUT_MS: '300' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise((exited) => child.once('close', exited));
  expect(status).toBe(1);
  expect(stderr).toContain(`DynamoDB at ${endpoint}, the engine of the \`npm start\` that holds ${dataDir}, did not answer.`);
  expect(stderr).toMatch(/Check that server: is it stopped \(Ctrl-Z\), stuck or overloaded\? Restart it/);
});
