/**
 * API Gateway's CORS (`corsConfiguration`, lib/petstore-http-api.ts) from the same facts (shared/cors.ts): preflights
 * skip the authorizer; a configured origin's answers gain the headers, any the function set are dropped; an origin
 * not configured gets none, as API Gateway documents (not verified here).
 */
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS, parseCorsOrigins } from '#shared/cors';
import type { GatewayResponse } from '#shared/gateway-events';

/** `PETSTORE_CORS_ORIGINS` (comma-separated), checked like a dev stage's `-c corsOrigins`. */
export const localCorsOrigins = (value: string | undefined): string[] | undefined => parseCorsOrigins('dev', value);

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
