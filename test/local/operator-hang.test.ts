/**
 * Every operator command run as a user runs it, its AWS endpoint (AWS_ENDPOINT_URL) a listener that accepts
 * connections and never answers (a proxy, VPC endpoint or firewall that black-holes): each exits 1 naming the endpoint
 * and what to check, within its AWS call deadline, shortened here by PETSTORE_AWS_CALL_DEADLINE_MS. A refused port
 * fails with its own line. The kill timeout of each process is only a ceiling for a hang.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const HANG_CEILING_MS = 90_000;

const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  doctor: ['scripts/doctor.ts', '--stage', 'dev'],
  outputs: ['scripts/outputs.ts', '--stage', 'staging'],
  keys: ['scripts/keys.ts', 'list', '--stage', 'staging'],
  logs: ['scripts/logs.ts', '--stage', 'staging'],
  smoke: ['scripts/smoke.ts', '--stage', 'staging'],
  'restore-table': ['scripts/restore-table.ts', '--stage', 'staging', '--table', 'pets', '--from', 'PetStore-staging-restored'],
};

interface Ended {
  readonly code: number | null;
  readonly output: string;
}

function runCommand(args: readonly string[], endpoint: string, home: string): Promise<Ended> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDSTANDIN',
    AWS_SECRET_ACCESS_KEY: 'x',
    AWS_EC2_METADATA_DISABLED: 'true',
    PETSTORE_AWS_CALL_DEADLINE_MS: '1000',
  };
  return new Promise((done) => {
    execFile(TSX, [...args], { cwd: ROOT, env, timeout: HANG_CEILING_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** Accepts every connection and reads and answers nothing. */
async function silentListener(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const held = new Set<Socket>();
  const server: Server = createServer((socket) => {
    held.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of held) socket.destroy();
        server.close(() => closed());
      }),
  };
}

/** A loopback port nothing listens on: bound, then closed. */
async function refusedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((closed) => server.close(() => closed()));
  return `http://127.0.0.1:${port}`;
}

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'petstore-hang-home-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('every operator command fails against an endpoint that never answers, naming it and what to check', async () => {
  const listener = await silentListener();
  try {
    const ended = await Promise.all(
      Object.entries(COMMANDS).map(async ([name, args]) => [name, await runCommand(args, listener.endpoint, home)] as const),
    );
    for (const [name, { code, output }] of ended) {
      expect({ name, code }).toEqual({ name, code: 1 });
      expect({ name, output }).toEqual({ name, output: expect.stringContaining(`${listener.endpoint} did not answer within 1 s`) });
      expect({ name, output }).toEqual({
        name,
        output: expect.stringMatching(/check a proxy \(HTTPS_PROXY.*VPC endpoint.*firewall.*eu-west-1/),
      });
    }
  } finally {
    await listener.close();
  }
});

it('a refused port fails with its own line, not the deadline', async () => {
  const endpoint = await refusedPort();
  const [outputs, doctor] = await Promise.all([
    runCommand(COMMANDS.outputs ?? [], endpoint, home),
    runCommand(COMMANDS.doctor ?? [], endpoint, home),
  ]);
  for (const { code, output } of [outputs, doctor]) {
    expect(code).toBe(1);
    expect(output).toContain(`${endpoint} refused the connection; check a proxy`);
    expect(output).not.toContain('did not answer');
  }
});
