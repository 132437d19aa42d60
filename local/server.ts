/**
 * The local HTTP server: the three APIs on one origin (messages at `/`, pets at `/v1`, account at
 * `/account`), through the gateway emulation of local/gateway.ts. Every request passes, in order:
 *
 *  1. the Host check: only names of this server, since the functions build `Location` and `Link` from it
 *     (and a browser page cannot reach it through DNS rebinding);
 *  2. the developer portal and its API reference page (local only, no key, no throttle);
 *  3. what API Gateway does itself: the 10,240-byte quota of the request line and header values (431), the
 *     stage throttle (429), the 10 MB body limit (413);
 *  4. the gateway dispatch: a CORS preflight goes to the preflight function without an authorizer,
 *     account routes through the JWT authorizer, the others through the Lambda authorizer; then
 *     Lambda's payload limit and the route's function. CORS headers are added last, as the gateway does.
 *
 * A development server on 127.0.0.1: it does not defend itself against slow or greedy clients, and
 * close() ends open connections at once (a request cut there was never acknowledged).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { GATEWAY_MAX_BODY_BYTES, GATEWAY_MAX_REQUEST_HEAD_BYTES } from '#shared/gateway-answers';
import { PETS_BASE_PATH } from '#shared/routes';
import { answerPreflight, isPreflightRoute, withCors } from './cors';
import type { GatewayFunctions } from './functions';
import { dispatchAccount } from './account-gateway';
import {
  apiOf,
  buildEvent,
  dispatch,
  gatewayAnswer,
  gatewayRequestId,
  matchRoute,
  readBody,
  writeResponse,
  type GatewayResponse,
} from './gateway';
import { hostProblem, writeLocalError } from './host-check';
import type { JwtAuthorizer } from './jwt-authorizer';
import { servePortal, type PortalIdentity } from './portal-server';
import { createThrottle, gatewayRouteKey, type GatewayThrottle } from './throttle';

export interface LocalApi {
  /** `http://127.0.0.1:PORT`: the messages base URL. */
  readonly origin: string;
  /** `http://127.0.0.1:PORT/v1`: the pets base URL. */
  readonly petsBaseUrl: string;
  readonly port: number;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

export interface LocalApiOptions {
  readonly functions: GatewayFunctions;
  readonly port?: number;
  readonly host?: string;
  /** The account API's JWT authorizer and the portal's identity provider (cognito-local); without them account routes answer 500 and /portal 404. */
  readonly accountAuthorizer?: JwtAuthorizer;
  readonly portal?: PortalIdentity;
  /** Origins allowed to call from a browser, as a stage's `-c corsOrigins` (local/cors.ts); no CORS when absent. */
  readonly corsOrigins?: readonly string[];
  /** API Gateway's stage throttles to emulate, per route; none when absent. */
  readonly throttle?: GatewayThrottle;
  /** The throttle's clock in milliseconds (default `performance.now`); tests drive it. */
  readonly now?: () => number;
  /** Lambda's timeout (default: the stack's, shared/function-settings.ts); only tests shorten it. */
  readonly functionTimeoutMs?: number;
  /** Called once per request, e.g. for an access log line. */
  readonly onResponse?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const host = options.host ?? '127.0.0.1';
  const throttle = options.throttle ? createThrottle(options.throttle, options.now) : undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse, port: number): Promise<number> => {
    const method = (request.method ?? 'GET').toUpperCase();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const badHost = hostProblem(request.rawHeaders, host, port);
    if (badHost) return writeLocalError(response, 400, badHost);
    // The portal (with its API reference page) needs no key and is no API route: answered before the gateway emulation.
    const portal = servePortal(request, path, response, options.portal);
    if (portal) return portal;

    // Over Node's own limit (16 KiB) Node answers a bare 431 itself.
    const headBytes = [
      `${method} ${request.url ?? '/'} HTTP/${request.httpVersion}`,
      ...request.rawHeaders.filter((_, index) => index % 2),
    ];
    if (Buffer.byteLength(headBytes.join('')) > GATEWAY_MAX_REQUEST_HEAD_BYTES) return answer(response, gatewayAnswer(431), request);
    const match = matchRoute(method, path);
    const api = apiOf(match, path);
    const { corsOrigins } = options;
    // CORS as API Gateway does it (local/cors.ts): preflights skip the authorizer; every answer, the gateway's own too, gains the headers.
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
        : api === 'account'
          ? await dispatchAccount(options.functions, event, match.route, options.accountAuthorizer, options.functionTimeoutMs)
          : await dispatch(options.functions, event, match.route, options.functionTimeoutMs);
    const answered = cors(result);
    writeResponse(response, answered, event.requestContext.requestId);
    return answered.statusCode;
  };

  // A missing Host is answered by the Host check, with a body, rather than by Node without one.
  const server: Server = createServer({ requireHostHeader: false }, (request, response) => {
    const started = performance.now();
    handle(request, response, request.socket.localPort ?? 0).then(
      (status) =>
        options.onResponse?.({
          method: (request.method ?? 'GET').toUpperCase(),
          path: (request.url ?? '/').split('?')[0] ?? '/',
          status,
          ms: performance.now() - started,
        }),
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
