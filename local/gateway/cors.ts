/**
 * API Gateway's CORS (`corsConfiguration`, lib/petstore-http-api.ts) from the same facts (shared/cors.ts): preflights
 * skip the authorizer; a configured origin's answers gain the headers, any the function set are dropped; an origin
 * not configured gets none, as API Gateway documents (not verified here).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS, parseCorsOrigins } from '#shared/cors';
import { PREFLIGHT_ROUTE } from '#shared/routes';
import { lambdaContext, toGatewayResponse, type GatewayResponse, type LambdaFunction } from '#shared/gateway-events';

/** `PETSTORE_CORS_ORIGINS` (comma-separated), checked like a dev stage's `-c corsOrigins`. */
export const localCorsOrigins = (value: string | undefined): string[] | undefined => parseCorsOrigins('dev', value);

/** `{proxy+}` needs at least one character. */
export const isPreflightRoute = (method: string, path: string): boolean =>
  method === PREFLIGHT_ROUTE.method && path.startsWith('/') && path.length > 1;

export async function answerPreflight(preflight: LambdaFunction, event: APIGatewayProxyEventV2): Promise<GatewayResponse> {
  const routeKey = `${PREFLIGHT_ROUTE.method} ${PREFLIGHT_ROUTE.path}`;
  const routed = {
    ...event,
    routeKey,
    pathParameters: { proxy: event.rawPath.slice(1) },
    requestContext: { ...event.requestContext, routeKey },
  };
  return toGatewayResponse(await preflight(routed, lambdaContext('preflight')));
}

const joined = (values: readonly (string | number)[]): string => values.join(',');

export function withCors(
  answer: GatewayResponse,
  method: string,
  requestHeaders: Readonly<Record<string, string | undefined>>,
  origins: readonly string[],
): GatewayResponse {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.startsWith('access-control-')));
  const origin = requestHeaders.origin;
  if (origin === undefined || !origins.includes(origin)) return { ...answer, headers };
  const preflight = method === 'OPTIONS' && requestHeaders['access-control-request-method'] !== undefined;
  const vary = headers.vary ? `${headers.vary}, origin` : 'origin';
  return {
    ...answer,
    headers: {
      ...headers,
      'access-control-allow-origin': origin,
      ...(preflight
        ? {
            'access-control-allow-methods': joined(CORS_ALLOW_METHODS),
            'access-control-allow-headers': joined(CORS_ALLOW_HEADERS),
            'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
          }
        : { 'access-control-expose-headers': joined(CORS_EXPOSE_HEADERS) }),
      vary,
    },
  };
}
