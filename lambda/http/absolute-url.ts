import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PUBLIC_HOST_HEADER_ENV } from '#shared/origin-headers';

/** The host the client called: behind the front door, the header CloudFront copied it into (only where the stack says). */
function publicHost(event: APIGatewayProxyEventV2): string {
  const forwardedHeader = process.env[PUBLIC_HOST_HEADER_ENV];
  const forwarded = forwardedHeader ? event.headers[forwardedHeader] : undefined;
  return forwarded ?? event.headers.host ?? event.requestContext.domainName;
}

/** Absolute URL on the host and path the client used, so it holds under a custom domain too. */
export function absoluteUrl(event: APIGatewayProxyEventV2, path: string, query?: URLSearchParams): string {
  const proto = event.headers['x-forwarded-proto'] ?? 'https';
  const host = publicHost(event);
  const search = query && query.size > 0 ? `?${query.toString()}` : '';
  return `${proto}://${host}${path}${search}`;
}
