import type { IncomingMessage, Server } from 'node:http';

export interface Listening {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Stops listening and cuts every open connection (keep-alive ones too), then resolves. */
  readonly close: () => Promise<void>;
}

/** Starts a test's HTTP server on a free loopback port. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no TCP port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((closed, reject) => {
        server.close((error) => (error ? reject(error) : closed()));
        server.closeAllConnections();
      }),
  };
}

/** A stand-in's request body, as text. */
export const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((done) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => done(text));
  });
