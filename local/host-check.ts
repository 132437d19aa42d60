/**
 * The local server answers only requests whose `Host` names it. The functions build absolute URLs
 * (`Location`, `Link`) from it; in AWS, API Gateway only routes the API's own domains here. Locally the
 * check also stops DNS rebinding: a page on another site cannot make the browser call this server under
 * a name of its own and read the answers.
 */
import type { ServerResponse } from 'node:http';

/** Writes the Error body (code `invalid_request`) and closes the connection; returns the status. */
export function writeLocalError(response: ServerResponse, status: number, message: string): number {
  const body = JSON.stringify({ code: 'invalid_request', message, status });
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

/** Why the request's Host does not name this server, or `undefined` when it does. */
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
