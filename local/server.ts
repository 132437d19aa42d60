/**
 * The local HTTP server: the three APIs on one origin (messages at `/`, pets at `/v1`, account at
 * `/account`), through the gateway emulation of local/gateway.ts. Every request passes, in order:
 *
 *  1. the HTTP layer: malformed requests, slow clients and too many connections are refused here
 *     (local/http-guards.ts), each with a complete answer;
 *  2. the Host check: only names of this server, since the functions build `Location` and `Link` from it;
 *  3. the API reference and the developer portal (local only, no key, no throttle);
 *  4. what API Gateway does itself: the stage throttle (429), the 10 MB body limit (413);
 *  5. the gateway dispatch: a CORS preflight goes to the preflight function without an authorizer,
 *     account routes through the JWT authorizer, the others through the Lambda authorizer; then
 *     Lambda's payload limit and the route's function. CORS headers are added last, as the gateway does.
 */ import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { serviceUnavailable } from '../lambda/shared/errors';
import { errorResponse } from '../lambda/shared/middleware/map-errors';
import { FUNCTION_TIMEOUT_SECONDS } from '../lib/function-settings';
import { PETS_BASE_PATH } from '../lib/routes';
import { answerPreflight, isPreflightRoute, withCors } from './cors';
import { serveApiReference } from './docs-server';
import type { GatewayFunctions } from './functions';
import { dispatchAccount } from './account-gateway';
import {
  GATEWAY_MAX_BODY_BYTES,
  apiOf,
  buildEvent,
  dispatch,
  gatewayAnswer,
  gatewayRequestId,
  matchRoute,
  readBody,
  toGatewayResponse,
  writeResponse,
  type GatewayResponse,
} from './gateway';
import { answerClientErrors, hostProblem, writeLocalError } from './http-guards';
import type { JwtAuthorizer } from './jwt-authorizer';
import { servePortal, type PortalIdentity } from './portal-server';
import { createThrottle, type ThrottleConfig } from './throttle';

export interface LocalApi {
  /** `http://127.0.0.1:PORT`: the messages base URL. */
  readonly origin: string;
  /** `http://127.0.0.1:PORT/v1`: the pets base URL. */
  readonly petsBaseUrl: string;
  readonly port: number;
  /**
   * Stops accepting connections, closes idle ones, answers in-flight requests with `connection: close`
   * and whatever still arrives on open ones with 503 `service_unavailable` (no function runs for it),
   * and resolves once in-flight requests are answered or, at the latest, after the drain timeout
   * (their connections are then cut).
   */
  close(): Promise<void>;
}

/** What one client may hold of the server. */
export interface HttpLimits {
  /** To receive a request's line and headers (slow-loris). */
  readonly headersTimeoutMs: number;
  /** To receive a whole request, body included. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections at once; Node closes any further one at once. */
  readonly maxConnections: number;
  /** How long close() lets in-flight requests finish. */
  readonly drainTimeoutMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  // The gateway's 10 MB limit at a slow 400 KB/s; past this a body is a client holding the server.
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
  // Every invocation ends within the function timeout (the emulator enforces it), so this drains all.
  drainTimeoutMs: FUNCTION_TIMEOUT_SECONDS * 1000 + 1000,
};

export interface LocalApiOptions {
  readonly functions: GatewayFunctions;
  readonly port?: number;
  readonly host?: string;
  /** The account API's JWT authorizer and the portal's identity provider (cognito-local); without them account routes answer 500 and /portal 404. */
  readonly accountAuthorizer?: JwtAuthorizer;
  readonly portal?: PortalIdentity;
  /** Origins allowed to call from a browser, as a stage's `-c corsOrigins` (local/cors.ts); no CORS when absent. */
  readonly corsOrigins?: readonly string[];
  /** API Gateway's stage throttle to emulate, per API; none when absent. */
  readonly throttle?: ThrottleConfig;
  readonly limits?: Partial<HttpLimits>;
  /** Lambda's timeout (default: the stack's, lib/function-settings.ts); only tests shorten it. */
  readonly functionTimeoutMs?: number;
  /** Called once per request, e.g. for an access log line. */
  readonly onResponse?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const host = options.host ?? '127.0.0.1';
  const limits: HttpLimits = { ...HTTP_LIMITS, ...options.limits };
  const throttle = options.throttle ? createThrottle(options.throttle) : undefined;
  /** Requests being answered, so a drain can mark them `connection: close` and a late client error can tell. */
  const inFlight = new Map<ServerResponse, Socket>();
  let draining = false;

  const handle = async (request: IncomingMessage, response: ServerResponse, port: number): Promise<number> => {
    const method = (request.method ?? 'GET').toUpperCase();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const badHost = hostProblem(request.rawHeaders, host, port);
    if (badHost) return writeLocalError(response, 400, badHost);
    // The API reference and the portal need no key and are no API routes: answered before the gateway emulation.
    const reference = serveApiReference(method, path, port, response) ?? servePortal(request, path, response, options.portal);
    if (reference) return reference;

    const match = matchRoute(method, path);
    const api = apiOf(match, path);
    const { corsOrigins } = options;
    // CORS as API Gateway does it (local/cors.ts): preflights skip the authorizer; every answer, the gateway's own too, gains the headers.
    const cors = (result: GatewayResponse): GatewayResponse =>
      corsOrigins ? withCors(result, method, singleValued(request.headers), corsOrigins) : result;
    if (throttle && !throttle.admit(api)) return answer(response, cors(gatewayAnswer(429)), request);
    const body = await readBody(request, GATEWAY_MAX_BODY_BYTES);
    if (body === 'too_large') return answer(response, cors(gatewayAnswer(413)), request);
    const event = buildEvent(request, body, match, request.socket.remoteAddress ?? host);
    const result =
      corsOrigins !== undefined && isPreflightRoute(method, path)
        ? await answerPreflight(options.functions.preflight, event)
        : api === 'account'
          ? await dispatchAccount(options.functions, event, match.route, options.accountAuthorizer, options.functionTimeoutMs)
          : await dispatch(options.functions, event, match.route, options.functionTimeoutMs);
    const answered = cors(result);
    writeResponse(response, answered, event.requestContext.requestId);
    return answered.statusCode;
  };

  const server: Server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 4)),
      // A missing Host is answered by the Host check, with a body, rather than by Node without one.
      requireHostHeader: false,
    },
    (request, response) => {
      const started = performance.now();
      if (draining) {
        // Arrived after close() began: no new work; a client may retry it elsewhere or later.
        response.setHeader('connection', 'close');
        writeResponse(response, toGatewayResponse(errorResponse(serviceUnavailable())), gatewayRequestId());
        return;
      }
      // The request's socket: a pipelined response gets its own only once the ones before it are out.
      inFlight.set(response, request.socket);
      response.once('close', () => inFlight.delete(response));
      const port = request.socket.localPort ?? 0;
      handle(request, response, port).then(
        (status) =>
          options.onResponse?.({
            method: (request.method ?? 'GET').toUpperCase(),
            path: (request.url ?? '/').split('?')[0] ?? '/',
            status,
            ms: performance.now() - started,
          }),
        () => {
          // The client went away (or timed out) mid-request, or a bug: API Gateway's own 500 if anyone listens.
          if (response.headersSent || request.socket.destroyed) response.destroy();
          else writeResponse(response, gatewayAnswer(500), gatewayRequestId());
        },
      );
    },
  );
  server.maxConnections = limits.maxConnections;
  answerClientErrors(server, (socket) => [...inFlight].some(([response, of]) => of === socket && response.headersSent));

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
        draining = true;
        // Pipelined requests are in flight together and answered in order: only a connection's last
        // answer may close it. If that one is already written (queued behind a slower one), the
        // connection is ended once it is out.
        const lastPerConnection = new Map([...inFlight].map(([response, socket]) => [socket, response]));
        for (const [socket, response] of lastPerConnection) {
          if (!response.headersSent) response.setHeader('connection', 'close');
          else response.once('finish', () => socket.end());
        }
        const deadline = setTimeout(() => server.closeAllConnections(), limits.drainTimeoutMs);
        server.close((error) => {
          clearTimeout(deadline);
          if (error) reject(error);
          else closed();
        });
        server.closeIdleConnections();
      }),
  };
}

/** A gateway answer with the request id API Gateway would give it. */
function answer(response: ServerResponse, result: GatewayResponse, request: IncomingMessage): number {
  // The body is not read (or not kept): this connection must not carry another request.
  if (!request.complete) response.setHeader('connection', 'close');
  writeResponse(response, result, gatewayRequestId());
  return result.statusCode;
}

/** Node's request headers as the gateway's event has them: one string per (lower-cased) name. */
function singleValued(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]));
}
