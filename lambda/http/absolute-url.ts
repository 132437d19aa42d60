import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PUBLIC_HOST_HEADER_ENV } from '#shared/origin-headers';

/**
 * The host the client called. Behind the front door API Gateway sees its own execute-api Host, and
 * the stack names the header CloudFront copied the client's host into; elsewhere that header would be
 * the client's own say, so it is read only where the stack set the variable.
 */
function publicHost(event: APIGatewayProxyEventV2): string {
  const forwardedHeader = process.env[PUBLIC_HOST_HEADER_ENV];
  const forwarded = forwardedHeader ? event.headers[forwardedHeader] : undefined;
  return forwarded ?? event.headers.host ?? event.requestContext.domainName;
}

/**
 * Absolute URL on the host the client called. API Gateway (and the local server) set
 * `x-forwarded-proto`; the path is the one the client used, so it holds under a custom domain too.
 */
export function absoluteUrl(event: APIGatewayProxyEventV2, path: string, query?: URLSearchParams): string {
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  const host = publicHost(event);
  const search = query && query.size > 0 ? `?${query.toString()}` : '';
  return `${proto}://${host}${path}${search}`;
}
