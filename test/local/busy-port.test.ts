/**
 * `npm start` on a port another program holds: it ends saying the port is taken and how to pick another (PORT), not
 * with Node's bare `listen EADDRINUSE`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killLeftoverServers, spawnLocalServer } from '../support/local-process';

let dataDir: string;
let taken: Server;
let port: number;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'petstore-busy-port-'));
  taken = createServer();
  await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', () => listening()));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await killLeftoverServers();
  await new Promise((closed) => taken.close(closed));
  rmSync(dataDir, { recursive: true, force: true });
});

test('a taken PORT ends npm start with exit code 1, naming the port and PORT=… to choose another, PORT=0 a free one', async () => {
  const server = spawnLocalServer({ PORT: String(port), PETSTORE_DATA_DIR: dataDir });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(`port ${port} on 127.0.0.1 is taken`);
  expect(server.output()).toContain('PORT=<port> (PORT=0 picks a free one)');
}, 120_000);
