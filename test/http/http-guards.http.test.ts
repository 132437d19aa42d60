/**
 * What the local server's HTTP layer does before any function runs: a complete answer with the Error
 * body for requests Node cannot parse, a Host that must name this server, slow clients cut off,
 * a connection cap, and a bounded drain when the server stops. Recording functions stand in for the
 * handlers (so "never reached a function" can be seen); the limits are shortened so the test is quick.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { connect, type Socket } from 'node:net';
import type { GatewayFunctions, LambdaFunction } from '../../local/functions';
import { startLocalApi, type HttpLimits, type LocalApi } from '../../local/server';

const LIMITS: Partial<HttpLimits> = { headersTimeoutMs: 500, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 300, drainTimeoutMs: 400 };
const SLOW_FUNCTION_MS = 900;

const invoked: APIGatewayProxyEventV2[] = [];
const record =
  (delayMs = 0): LambdaFunction =>
  async (event) => {
    invoked.push(event as APIGatewayProxyEventV2);
    await new Promise((wake) => setTimeout(wake, delayMs));
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[]' };
  };
const functions: GatewayFunctions = {
  authorizer: () => Promise.resolve({ isAuthorized: true, context: { authenticated: true, accountId: 'a1', keyId: 'k1' } }),
  notFound: record(),
  preflight: record(),
  operations: new Map([
    ['listPets', record()],
    ['createPet', record()],
    ['getPet', record(SLOW_FUNCTION_MS)],
    ['submitMessage', record()],
  ]),
};

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi({ functions, limits: LIMITS });
});
afterAll(() => api.close());
beforeEach(() => (invoked.length = 0));

interface Exchange {
  /** Everything the server sent before it closed the connection (or the wait ended). */
  readonly text: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly closedAfterMs: number;
  readonly closed: boolean;
}

/** Writes `chunks` on a fresh connection, `gapMs` apart, and collects the answer until the server closes. */
function exchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: { gapMs?: number; waitMs?: number } = {},
): Promise<Exchange> {
  const started = performance.now();
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
        closedAfterMs: performance.now() - started,
        closed,
      });
    };
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => finish(false), options.waitMs ?? 5_000);
    void (async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.gapMs) await new Promise((wake) => setTimeout(wake, options.gapMs));
      }
    })();
  });
}

const host = (): string => `127.0.0.1:${api.port}`;

function expectErrorBody(answer: Exchange, status: number): void {
  expect({ status: answer.status, contentType: answer.headers['content-type'], connection: answer.headers.connection }).toEqual({
    status,
    contentType: 'application/json',
    connection: 'close',
  });
  expect(JSON.parse(answer.body)).toEqual({ code: 'invalid_request', message: expect.any(String), status });
}

describe('malformed HTTP is answered with the Error body, and reaches no function', () => {
  const POST = (headers: string, body = ''): string => `POST /v1/pets HTTP/1.1\r\nHost: HOST\r\n${headers}\r\n${body}`;
  test.each([
    ['an invalid method', 400, 'G@T /v1/pets HTTP/1.1\r\nHost: HOST\r\n\r\n'],
    ['an unknown HTTP version', 400, 'GET /v1/pets HTTP/9.9\r\nHost: HOST\r\n\r\n'],
    ['a space in the target', 400, 'GET /v1/pets x HTTP/1.1\r\nHost: HOST\r\n\r\n'],
    ['a header name with a space', 400, 'GET /v1/pets HTTP/1.1\r\nHost: HOST\r\nBad Header: 1\r\n\r\n'],
    ['a NUL in a header value', 400, 'GET /v1/pets HTTP/1.1\r\nHost: HOST\r\nX-A: a\0b\r\n\r\n'],
    ['an obsolete folded header', 400, 'GET /v1/pets HTTP/1.1\r\nHost: HOST\r\nX-A: a\r\n b\r\n\r\n'],
    ['bare LF line ends', 400, 'GET /v1/pets HTTP/1.1\nHost: HOST\n\n'],
    ['TLS bytes on the plain port', 400, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'],
    ['Content-Length and Transfer-Encoding together', 400, POST('Content-Length: 3\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n')],
    ['a Content-Length that is no number', 400, POST('Content-Length: abc\r\n')],
    ['two different Content-Lengths', 400, POST('Content-Length: 1\r\nContent-Length: 2\r\n', 'ab')],
    ['a chunk size that is no number', 400, POST('Transfer-Encoding: chunked\r\n', 'zz\r\nabc\r\n0\r\n\r\n')],
    ['headers over the size limit', 431, `GET /v1/pets HTTP/1.1\r\nHost: HOST\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['an Expect other than 100-continue', 417, POST('Expect: 200-ok\r\nContent-Length: 0\r\n')],
    ['HTTP/1.1 without Host', 400, 'GET /v1/pets HTTP/1.1\r\n\r\n'],
  ])('%s answers %i', async (_kind, status, request) => {
    const answer = await exchange(api.port, [request.replaceAll('HOST', host())]);
    expectErrorBody(answer, status);
    expect(answer.closed).toBe(true);
    expect(invoked).toHaveLength(0);
  });
});

describe('the Host header must name this server', () => {
  test.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('Host %s:<port> is served', async (name) => {
    const answer = await exchange(api.port, [`GET /v1/pets HTTP/1.1\r\nHost: ${name}:${api.port}\r\nConnection: close\r\n\r\n`]);
    expect(answer.status).toBe(200);
    expect(invoked.map((event) => event.headers.host)).toEqual([`${name}:${api.port}`]);
  });

  test.each([
    ['another name', ['Host: evil.example']],
    ['another port', ['Host: 127.0.0.1:1']],
    ['no port', ['Host: localhost']],
    ['two Host headers', ['Host: HOST', 'Host: evil.example']],
  ])('%s answers 400 invalid_request and reaches no function', async (_kind, hostLines) => {
    const lines = hostLines.map((line) => line.replace('HOST', host())).join('\r\n');
    const answer = await exchange(api.port, [`POST /v1/pets HTTP/1.1\r\n${lines}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'invalid_request',
      message: expect.stringMatching(/^Host must name this server/),
      status: 400,
    });
    expect(invoked).toHaveLength(0);
  });
});

describe('slow clients cannot hold the server', () => {
  test('headers dripped one line at a time are cut off at the headers timeout with 408', async () => {
    const lines = [`GET /v1/pets HTTP/1.1\r\nHost: ${host()}\r\n`, ...Array.from({ length: 40 }, (_, index) => `X-Drip-${index}: x\r\n`)];
    const answer = await exchange(api.port, lines, { gapMs: 100 });
    expectErrorBody(answer, 408);
    expect(answer.closedAfterMs).toBeLessThan(1_500);
    expect(invoked).toHaveLength(0);
  });

  test('a body dripped one byte at a time is cut off at the request timeout with 408, before any function runs', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const answer = await exchange(api.port, [head, ...Array.from({ length: 100 }, () => 'x')], { gapMs: 100 });
    expectErrorBody(answer, 408);
    expect(answer.closedAfterMs).toBeLessThan(2_000);
    expect(invoked).toHaveLength(0);
  });

  test('a connection that sends nothing is closed', async () => {
    const answer = await exchange(api.port, []);
    expect(answer.closed).toBe(true);
    expect(answer.closedAfterMs).toBeLessThan(1_500);
  });

  test('connections over the cap are closed at once, without taking the place of open ones', async () => {
    const capped = await startLocalApi({
      functions,
      limits: { ...LIMITS, headersTimeoutMs: 3_000, requestTimeoutMs: 3_000, maxConnections: 2 },
    });
    const held: Socket[] = [];
    try {
      for (let index = 0; index < 2; index++) {
        const socket = connect(capped.port, '127.0.0.1');
        await new Promise((open) => socket.once('connect', open));
        held.push(socket);
      }
      await new Promise((wake) => setTimeout(wake, 50));
      const third = await exchange(capped.port, [`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${capped.port}\r\n\r\n`], { waitMs: 1_000 });
      expect({ closed: third.closed, text: third.text }).toEqual({ closed: true, text: '' });
      // A held connection still works.
      const first = held[0] as Socket;
      const answered = new Promise<string>((got) => first.once('data', (chunk) => got(chunk.toString())));
      first.write(`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${capped.port}\r\n\r\n`);
      expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of held) socket.destroy();
      await capped.close();
    }
  });
});

describe('stopping drains in-flight requests, within a bound', () => {
  test('close() refuses new connections, closes idle ones, marks late answers connection: close and cuts requests past the drain timeout', async () => {
    const draining = await startLocalApi({ functions, limits: LIMITS });
    const request = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${draining.port}\r\n\r\n`;
    // An idle keep-alive connection, and two whose requests outlive the drain timeout (one with a
    // second request pipelined behind it).
    const idle = connect(draining.port, '127.0.0.1');
    const idleClosed = new Promise<void>((closed) => idle.once('close', () => closed()));
    idle.on('error', () => undefined);
    await new Promise((open) => idle.once('connect', open));
    const slow = exchange(draining.port, [request('/v1/pets/1')], { waitMs: 5_000 });
    const pipelined = exchange(draining.port, [request('/v1/pets/2') + request('/v1/pets')], { waitMs: 5_000 });
    await new Promise((wake) => setTimeout(wake, 100));

    const closing = performance.now();
    const closed = draining.close();
    await idleClosed;
    const refused = await exchange(draining.port, [request('/v1/pets')], { waitMs: 1_000 });
    await closed;
    const closeMs = performance.now() - closing;

    expect(refused.text).toBe('');
    expect(closeMs).toBeLessThan((LIMITS.drainTimeoutMs ?? 0) + 400);
    // The slow function (0.9 s) outlived the 400 ms drain: its connection was cut without an answer.
    for (const cut of await Promise.all([slow, pipelined]))
      expect({ text: cut.text, closed: cut.closed }).toEqual({ text: '', closed: true });
  });

  test('in-flight requests are all answered, pipelined ones in order, the last with connection: close', async () => {
    const draining = await startLocalApi({ functions, limits: { ...LIMITS, drainTimeoutMs: 5_000 } });
    const request = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${draining.port}\r\n\r\n`;
    // Pipelined: the slow function first; the quick ones behind it are done first but answered after it.
    const pipelined = exchange(draining.port, [request('/v1/pets/1') + request('/v1/pets') + request('/v1/pets/2')], { waitMs: 5_000 });
    const quickLast = exchange(draining.port, [request('/v1/pets/3') + request('/v1/pets')], { waitMs: 5_000 });
    await new Promise((wake) => setTimeout(wake, 100));
    const closing = performance.now();
    await draining.close();
    const connections = (await Promise.all([pipelined, quickLast])).map((answer) => ({
      statuses: [...answer.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1])),
      connection: [...answer.text.matchAll(/^connection: (.*)$/gim)].map((match) => match[1]?.trim()),
      closed: answer.closed,
    }));
    expect(connections).toEqual([
      { statuses: [200, 200, 200], connection: ['keep-alive', 'keep-alive', 'close'], closed: true },
      // The quick one was written before close() began, behind the slow one: the connection ends after it.
      { statuses: [200, 200], connection: ['keep-alive', 'keep-alive'], closed: true },
    ]);
    expect(performance.now() - closing).toBeLessThan(SLOW_FUNCTION_MS + 500);
    expect(invoked).toHaveLength(5);
  });

  test('a request on an open keep-alive connection after close() began answers 503 service_unavailable with connection: close', async () => {
    const draining = await startLocalApi({ functions, limits: { ...LIMITS, drainTimeoutMs: 5_000 } });
    const request = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${draining.port}\r\n\r\n`;
    // One connection busy with the slow function keeps the server draining; another sends its request late.
    const busy = exchange(draining.port, [request('/v1/pets/1')], { waitMs: 5_000 });
    const late = exchange(draining.port, ['', request('/v1/pets')], { gapMs: 300, waitMs: 5_000 });
    await new Promise((wake) => setTimeout(wake, 100));
    const closed = draining.close();
    const answer = await late;
    expect({ status: answer.status, connection: answer.headers.connection, retryAfter: answer.headers['retry-after'] }).toEqual({
      status: 503,
      connection: 'close',
      retryAfter: '1',
    });
    expect(JSON.parse(answer.body)).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
    expect((await busy).status).toBe(200);
    await closed;
    expect(invoked.map((event) => event.rawPath)).toEqual(['/v1/pets/1']);
  });
});
