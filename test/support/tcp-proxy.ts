import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'blackhole';

/**
 * A TCP proxy in front of the local DynamoDB that can fail on demand: `refuse` resets every
 * connection (an unreachable database), `blackhole` accepts and never answers (a hung one).
 */
export interface FaultProxy {
  readonly endpoint: string;
  setMode(mode: ProxyMode): void;
  /**
   * The next request whose bytes contain `marker` reaches DynamoDB, but its answer never reaches the
   * client: the connection is cut as the answer arrives (a lost response, which the SDK retries).
   */
  loseNextAnswerTo(marker: string): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const { hostname, port } = new URL(target);
  let mode: ProxyMode = 'up';
  let loseAnswerTo: string | undefined;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'refuse') return void client.resetAndDestroy();
    if (mode === 'blackhole') return; // read nothing, answer nothing
    const upstream = connect(Number(port), hostname);
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let losing = false;
    client.on('data', (chunk: Buffer) => {
      if (loseAnswerTo !== undefined && chunk.includes(loseAnswerTo)) {
        loseAnswerTo = undefined;
        losing = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (losing) client.destroy();
      else client.write(chunk);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    setMode: (next) => {
      mode = next;
      // Kept-alive connections must feel the change too.
      if (next !== 'up') for (const socket of open) socket.destroy();
    },
    loseNextAnswerTo: (marker) => {
      loseAnswerTo = marker;
    },
    close: () =>
      new Promise((closed) => {
        for (const socket of open) socket.destroy();
        server.close(() => closed());
      }),
  };
}
