/**
 * Only requests whose `Host` names this server: the functions build `Location` and `Link` from it (in AWS only the
 * API's own domains arrive), and DNS rebinding cannot let another site's page read the answers.
 */
import type { ServerResponse } from 'node:http';

/** The Error body (`invalid_request`); closes the connection and returns the status. */
export function writeLocalError(response: ServerResponse, status: number, message: string): number {
  const body = JSON.stringify({ code: 'invalid_request', message, status });
  response.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
  return status;
}

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
