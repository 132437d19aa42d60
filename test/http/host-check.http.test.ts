/**
 * What the local server answers before any function runs: a `Host` that does not name this server
 * (DNS rebinding, or a request meant for elsewhere) gets 400 with the Error body, and a request Node
 * cannot parse gets Node's own 400. Recording functions stand in for the handlers, so "never reached a
 * function" can be seen.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { connect } from 'node:net';
import type { GatewayFunctions, LambdaFunction } from '#local/gateway/functions';
import { startLocalApi, type LocalApi } from '#local/gateway/server';

const invoked: APIGatewayProxyEventV2[] = [];
const record: LambdaFunction = (event) => {
  invoked.push(event as APIGatewayProxyEventV2);
  return Promise.resolve({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[]' });
};
const functions: GatewayFunctions = {
  authorizer: () => Promise.resolve({ isAuthorized: true, context: { authenticated: true, accountId: 'a1', keyId: 'k1' } }),
  notFound: record,
  preflight: record,
  operations: new Map([
    ['listPets', record],
    ['createPet', record],
    ['getPet', record],
    ['submitMessage', record],
  ]),
};

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi({ functions });
});
afterAll(() => api.close());
beforeEach(() => (invoked.length = 0));

interface Exchange {
  /** Everything the server sent before it closed the connection (or the wait ended). */
  readonly text: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly closed: boolean;
}

/** Writes `request` on a fresh connection and collects the answer until the server closes it. */
function exchange(port: number, request: string): Promise<Exchange> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      done({
        text,
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closed,
      });
    };
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    // A ceiling for a hang: every request here is answered with `connection: close`.
    const timer = setTimeout(() => finish(false), 20_000);
    socket.write(request);
  });
}

const host = (): string => `127.0.0.1:${api.port}`;

describe('the Host header must name this server', () => {
  test.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('Host %s:<port> is served', async (name) => {
    const answer = await exchange(api.port, `GET /v1/pets HTTP/1.1\r\nHost: ${name}:${api.port}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(invoked.map((event) => event.headers.host)).toEqual([`${name}:${api.port}`]);
  });

  test.each([
    ['another name', ['Host: evil.example']],
    ['another port', ['Host: 127.0.0.1:1']],
    ['no port', ['Host: localhost']],
    ['two Host headers', ['Host: HOST', 'Host: evil.example']],
    ['no Host header (HTTP/1.1)', []],
  ])('%s answers 400 invalid_request and reaches no function', async (_kind, hostLines) => {
    const lines = hostLines.map((line) => `${line.replace('HOST', host())}\r\n`).join('');
    const answer = await exchange(api.port, `POST /v1/pets HTTP/1.1\r\n${lines}Content-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect({ status: answer.status, contentType: answer.headers['content-type'], connection: answer.headers.connection }).toEqual({
      status: 400,
      contentType: 'application/json',
      connection: 'close',
    });
    expect(JSON.parse(answer.body)).toEqual({
      code: 'invalid_request',
      message: expect.stringMatching(/^Host must name this server/),
      status: 400,
    });
    expect(invoked).toHaveLength(0);
  });
});

test.each([
  ['an invalid method', 'G@T /v1/pets HTTP/1.1\r\nHost: HOST\r\n\r\n'],
  [
    'Content-Length and Transfer-Encoding together',
    'POST /v1/pets HTTP/1.1\r\nHost: HOST\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  ['bare LF line ends', 'GET /v1/pets HTTP/1.1\nHost: HOST\n\n'],
])('a request Node cannot parse (%s) gets its 400, closes the connection and reaches no function', async (_kind, request) => {
  const answer = await exchange(api.port, request.replaceAll('HOST', host()));
  expect({ status: answer.status, closed: answer.closed }).toEqual({ status: 400, closed: true });
  expect(invoked).toHaveLength(0);
});
