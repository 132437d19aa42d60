import { createServer, type Server } from 'node:http';
import { PETS_BASE_PATH } from '../lib/routes';
import { answerPreflight, isPreflightRoute, withCors } from './cors';
import { serveApiReference } from './docs-server';
import type { GatewayFunctions } from './functions';
import { ApiError } from '../lambda/shared/errors';
import { errorResponse } from '../lambda/shared/middleware/map-errors';
import { GATEWAY_MAX_BODY_BYTES, buildEvent, dispatch, matchRoute, readBody, toGatewayResponse, writeResponse } from './gateway';
import { dispatchAccount, isAccountRequest } from './account-gateway';
import type { JwtAuthorizer } from './jwt-authorizer';
import { servePortal, type PortalIdentity } from './portal-server';

export interface LocalApi {
  /** `http://127.0.0.1:PORT`: the messages base URL. */
  readonly origin: string;
  /** `http://127.0.0.1:PORT/v1`: the pets base URL. */
  readonly petsBaseUrl: string;
  readonly port: number;
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
  /** Called once per request, e.g. for an access log line. */
  readonly onResponse?: (line: { method: string; path: string; status: number; ms: number }) => void;
}

/** Over API Gateway's own limit: answered here, in the API's one error shape. */
const tooLarge = () =>
  toGatewayResponse(errorResponse(new ApiError(413, 'payload_too_large', `request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes`)));

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((request, response) => {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    // The API reference and the portal need no key and are no API routes: answered before the gateway emulation.
    const reference =
      serveApiReference(method, path, request.socket.localPort ?? 0, response) ?? servePortal(request, path, response, options.portal);
    if (reference) {
      void reference.then((status) => options.onResponse?.({ method, path, status, ms: performance.now() - started }));
      return;
    }
    void (async () => {
      const body = await readBody(request, GATEWAY_MAX_BODY_BYTES);
      const match = matchRoute(method, path);
      const event = buildEvent(request, body === 'too_large' ? Buffer.alloc(0) : body, match, request.socket.remoteAddress ?? host);
      const { corsOrigins } = options;
      // CORS as API Gateway does it (local/cors.ts): preflights skip the authorizer, answers gain the headers.
      const preflight = corsOrigins !== undefined && isPreflightRoute(method, path);
      const answer =
        body === 'too_large'
          ? tooLarge()
          : preflight
            ? await answerPreflight(options.functions.preflight, event)
            : isAccountRequest(path, match.route)
              ? await dispatchAccount(options.functions, event, match.route, options.accountAuthorizer)
              : await dispatch(options.functions, event, match.route);
      const result = corsOrigins ? withCors(answer, method, event.headers, corsOrigins) : answer;
      writeResponse(response, result, event.requestContext.requestId);
      options.onResponse?.({ method, path, status: result.statusCode, ms: performance.now() - started });
    })().catch(() => {
      if (!response.headersSent) {
        response.statusCode = 500;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ message: 'Internal Server Error' }));
      } else response.destroy();
    });
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
    // Stops accepting connections and resolves once in-flight requests have been answered.
    close: () =>
      new Promise<void>((closed, reject) => {
        server.close((error) => (error ? reject(error) : closed()));
        server.closeIdleConnections();
      }),
  };
}
