import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * Absolute URL on the host the client called. API Gateway (and the local server) set
 * `x-forwarded-proto`; the path is the one the client used, so it holds under a custom domain too.
 */
export function absoluteUrl(event: APIGatewayProxyEventV2, path: string, query?: URLSearchParams): string {
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  const host = event.headers.host ?? event.requestContext.domainName;
  const search = query && query.size > 0 ? `?${query.toString()}` : '';
  return `${proto}://${host}${path}${search}`;
}
