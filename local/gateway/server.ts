/**
 * The local HTTP server: the three APIs on one origin through shared/gateway-events.ts. A request passes the Host check, then
 * the portal, then what API Gateway does itself (head quota 431, throttle 429, body limit 413), then the dispatch;
 * CORS headers last. A development server: no defence against slow or greedy clients; close() cuts connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { GATEWAY_MAX_BODY_BYTES, GATEWAY_MAX_REQUEST_HEAD_BYTES } from '#shared/gateway-answers';
import { PETS_BASE_PATH } from '#shared/routes';
import { withCors } from './cors';
import {
  answerPreflight,
  apiOf,
  buildEvent,
  dispatch,
  gatewayAnswer,
  gatewayRequestId,
  isPreflightRoute,
  matchRoute,
  type GatewayFunctions,
  type GatewayResponse,
  type JwtAuthorizer,
} from '#shared/gateway-events';
import { hostProblem, writeLocalError } from './host-check';
import { servePortal, type PortalIdentity } from './portal-server';
import { createThrottle, gatewayRouteKey, type GatewayThrottle } from './throttle';

export interface LocalApi {
  readonly origin: string;
  readonly petsBaseUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface LocalApiOptions {
  readonly functions: GatewayFunctions;
  readonly port?: number;
  readonly host?: string;
  /** Without them account routes answer 500 and /portal 404. */
  readonly accountAuthorizer?: JwtAuthorizer;
  readonly portal?: PortalIdentity;
  /** As a stage's `-c corsOrigins`; no CORS when absent. */
  readonly corsOrigins?: readonly string[];
  readonly throttle?: GatewayThrottle;
  /** The throttle's clock in milliseconds. */
  readonly now?: () => number;
  /** Lambda's timeout (default: the stack's); only tests shorten it. */
  readonly functionTimeoutMs?: number;
  readonly onResponse?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const host = options.host ?? '127.0.0.1';
  const throttle = options.throttle ? createThrottle(options.throttle, options.now) : undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse, method: string, path: string): Promise<number> => {
    const port = request.socket.localPort ?? 0;
    const badHost = hostProblem(request.rawHeaders, host, port);
    if (badHost) return writeLocalError(response, 400, badHost);
    const portal = servePortal(request, path, response, options.portal);
    if (portal) return portal;

    // Over Node's own limit (16 KiB) Node answers a bare 431 itself.
    const head = [`${method} ${request.url ?? '/'} HTTP/${request.httpVersion}`, ...request.rawHeaders.filter((_, index) => index % 2)];
    if (Buffer.byteLength(head.join('')) > GATEWAY_MAX_REQUEST_HEAD_BYTES) return answer(response, gatewayAnswer(431), request);
    const match = matchRoute(method, path);
    const api = apiOf(match, path);
    const { corsOrigins } = options;
    // CORS as API Gateway does it (local/gateway/cors.ts): preflights skip the authorizer; every answer, the gateway's own too, gains the headers.
    const cors = (result: GatewayResponse): GatewayResponse =>
      corsOrigins ? withCors(result, method, singleValued(request.headers), corsOrigins) : result;
    if (throttle && !throttle.admit(api, gatewayRouteKey(match.route, method, path)))
      return answer(response, cors(gatewayAnswer(429)), request);
    const body = await readBody(request, GATEWAY_MAX_BODY_BYTES);
    if (body === 'too_large') return answer(response, cors(gatewayAnswer(413)), request);
    const event = buildEvent(request, body, match, request.socket.remoteAddress ?? host);
    const result =
      corsOrigins !== undefined && isPreflightRoute(method, path)
        ? await answerPreflight(options.functions.preflight, event)
        : await dispatch(
            options.functions,
            event,
            match.route,
            options.functionTimeoutMs,
            api === 'account' ? { authorizer: options.accountAuthorizer } : undefined,
          );
    const answered = cors(result);
    writeResponse(response, answered, event.requestContext.requestId);
    return answered.statusCode;
  };

  // A missing Host is answered by the Host check, with a body, rather than by Node without one.
  const server: Server = createServer({ requireHostHeader: false }, (request, response) => {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    handle(request, response, method, path).then(
      (status) => options.onResponse?.({ method, path, status, ms: performance.now() - started }),
      () => {
        // The client went away mid-request, or a bug: API Gateway's own 500 if anyone listens.
        if (response.headersSent || request.socket.destroyed) response.destroy();
        else writeResponse(response, gatewayAnswer(500), gatewayRequestId());
      },
    );
  });

  await new Promise<void>((listening, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => listening());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const origin = `http://${host}:${address.port}`;
  return {
    origin,
    petsBaseUrl: `${origin}${PETS_BASE_PATH}`,
    port: address.port,
    close: () =>
      new Promise<void>((closed, reject) => {
        server.close((error) => (error ? reject(error) : closed()));
        server.closeAllConnections();
      }),
  };
}

function answer(response: ServerResponse, result: GatewayResponse, request: IncomingMessage): number {
  // The body is not read (or not kept): this connection must not carry another request.
  if (!request.complete) response.setHeader('connection', 'close');
  writeResponse(response, result, gatewayRequestId());
  return result.statusCode;
}

function singleValued(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]));
}

/** The whole body, or `too_large` (read to its end, kept no further) past `maxBytes`; rejects if the client goes away first. */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolveBody(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
    // A cut connection (or the server's request timeout) ends the request without 'end'.
    request.on('close', () => {
      if (!request.complete) reject(new Error('the request was not received in full'));
    });
  });
}

function writeResponse(response: ServerResponse, result: GatewayResponse, requestId: string): void {
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
  if (result.cookies.length > 0) response.setHeader('set-cookie', [...result.cookies]);
  response.setHeader('apigw-requestid', requestId);
  response.setHeader('content-length', result.body.length);
  response.end(result.body);
}
