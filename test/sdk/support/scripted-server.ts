/**
 * A stand-in for the API that answers each request as a test says: a status, headers and body, or no answer at
 * all (`hang`, until the client gives up), or a cut connection (`reset`). It records what it received.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../../support/loopback-server';

export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Sent as JSON with `content-type: application/json` unless `headers` says otherwise; a string is sent as it is. */
  readonly body?: unknown;
}

export type Script = (request: ReceivedRequest, index: number) => ScriptedAnswer | 'hang' | 'reset';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ScriptedServer {
  readonly origin: string;
  readonly received: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** Service-shaped error answers and the gateway's, as the deployed API sends them. */
export const serviceError = (status: number, code: string, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  body: { code, message: `a ${code} answer`, status },
});
/** API Gateway's own answer: its body, and no Content-Type. */
export const gatewayAnswer = (status: number, message: string): ScriptedAnswer => ({ status, body: JSON.stringify({ message }) });

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(got);
      const answer = script(got, received.length - 1);
      if (answer === 'hang') return;
      if (answer === 'reset') return void request.socket.destroy();
      const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
      const contentType: Record<string, string> = typeof answer.body === 'object' ? { 'content-type': 'application/json' } : {};
      response.writeHead(answer.status, { ...contentType, ...answer.headers });
      response.end(text);
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, received, close };
}
