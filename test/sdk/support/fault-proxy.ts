/**
 * An HTTP proxy between the SDK and the local server that fails requests on a script, per `Idempotency-Key`:
 * the n-th request carrying a key meets the script's n-th fault. Since the script follows the key, a client that
 * kept its key across retries walks through the whole script; one that changed it would start over.
 *
 * - `forward`: passes the request on and the answer back.
 * - `lose-answer`: passes the request on, reads the whole answer (the write happened), and answers 503
 *   `service_unavailable` with `Retry-After: 1` instead: the worst case of a lost answer.
 * - `lose-answer-500`: the same, answering API Gateway's own 500 instead (a function that ran out of time after
 *   its write): `{"message":"Internal Server Error"}`, no Content-Type, no `Retry-After`.
 * - `refuse`: answers that 503 without passing the request on.
 * - `reset`: cuts the connection without an answer.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../support/loopback-server';

export type Fault = 'forward' | 'lose-answer' | 'lose-answer-500' | 'refuse' | 'reset';

export interface FaultProxy {
  /** `http://127.0.0.1:PORT`: the target's paths, through the proxy. */
  readonly origin: string;
  /** Requests seen per `Idempotency-Key` (`''` for requests without one). */
  readonly hits: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

const SERVICE_UNAVAILABLE = JSON.stringify({
  code: 'service_unavailable',
  message: 'the service is temporarily unavailable; retry shortly',
  status: 503,
});

function answerServiceUnavailable(response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': '1' });
  response.end(SERVICE_UNAVAILABLE);
}

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Sends the request on to `target` (Host rewritten: the local server answers only its own names) and reads the whole answer. */
function forward(
  target: URL,
  request: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: target.host },
      },
      (answer) => {
        readAll(answer).then(
          (answerBody) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: answerBody }),
          reject,
        );
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/**
 * @param script the faults met by the 1st, 2nd, … request with one `Idempotency-Key`; requests beyond it are forwarded
 */
export async function startFaultProxy(target: string, script: (key: string) => readonly Fault[]): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const key = request.headers['idempotency-key'];
    const keyText = typeof key === 'string' ? key : '';
    const count = (hits.get(keyText) ?? 0) + 1;
    hits.set(keyText, count);
    const fault = script(keyText)[count - 1] ?? 'forward';
    void (async () => {
      const body = await readAll(request);
      if (fault === 'reset') {
        request.socket.destroy();
        return;
      }
      const answer = fault === 'refuse' ? undefined : await forward(targetUrl, request, body);
      if (fault === 'lose-answer-500') {
        response.writeHead(500).end(JSON.stringify({ message: 'Internal Server Error' }));
        return;
      }
      if (answer === undefined || fault === 'lose-answer') {
        answerServiceUnavailable(response);
        return;
      }
      const { connection: _connection, 'keep-alive': _keepAlive, 'transfer-encoding': _encoding, ...headers } = answer.headers;
      response.writeHead(answer.status, headers);
      response.end(answer.body);
    })().catch(() => request.socket.destroy());
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, hits, close };
}
