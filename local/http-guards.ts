/**
 * What the local HTTP layer answers by itself, before any route: requests Node cannot parse or that
 * arrive too slowly, an `Expect` it cannot meet, and a `Host` that does not name this server. Each
 * gets a complete answer with the service's Error body (code `invalid_request`) and, when the
 * connection cannot carry another request, `connection: close`. In AWS such requests never reach the
 * service: API Gateway's front end answers them with bodies of its own (README, Errors).
 */
import { STATUS_CODES, maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const errorBody = (status: number, message: string): string => JSON.stringify({ code: 'invalid_request', message, status });

/** Writes the Error body on a parsed request's response and closes the connection; returns the status. */
export function writeLocalError(response: ServerResponse, status: number, message: string): number {
  const body = errorBody(status, message);
  response.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    // The request's body (if any) was not read: the connection cannot carry another request.
    connection: 'close',
  });
  response.end(body);
  return status;
}

/** A complete HTTP/1.1 answer written straight to a socket whose request could not be parsed. */
function rawAnswer(status: number, message: string): string {
  const body = errorBody(status, message);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    'content-type: application/json\r\ncache-control: no-store\r\nconnection: close\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface ClientError extends Error {
  readonly code?: string;
  /** llhttp's description of what it could not parse. */
  readonly reason?: string;
}

function clientErrorAnswer(error: ClientError): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: `the request line and headers exceed ${maxHeaderSize} bytes` };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'the request was not received in time' };
  const reason = typeof error.reason === 'string' && error.reason !== '' ? `: ${error.reason}` : '';
  return { status: 400, message: `malformed HTTP request${reason}` };
}

/**
 * Replaces Node's bare 400/408/431/417 answers with complete ones. `responseStarted` tells whether an
 * answer is already under way on the socket (a timeout mid-response): then it can only be cut.
 */
export function answerClientErrors(server: Server, responseStarted: (socket: Duplex) => boolean): void {
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(error);
    socket.end(rawAnswer(status, message));
  });
  // Node answers an `Expect` other than `100-continue` with a bare 417 unless someone listens.
  server.on('checkExpectation', (request, response) => {
    writeLocalError(response, 417, `unsupported Expect: ${request.headers.expect ?? ''}`);
  });
}

/**
 * Why the request's Host does not name this server, or `undefined` when it does. The functions build
 * absolute URLs (`Location`, `Link`) from it; in AWS, API Gateway only routes the API's own domains
 * here, so locally only this server's names are accepted (which also stops DNS rebinding).
 */
export function hostProblem(rawHeaders: readonly string[], boundHost: string, port: number): string | undefined {
  const hosts: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if ((rawHeaders[index] as string).toLowerCase() === 'host') hosts.push(rawHeaders[index + 1] as string);
  }
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${boundHost}:${port}`]);
  const expected = `Host must name this server (127.0.0.1:${port}, localhost:${port} or [::1]:${port})`;
  if (hosts.length !== 1) return `${expected}; the request has ${hosts.length} Host headers`;
  return names.has((hosts[0] as string).toLowerCase()) ? undefined : expected;
}
