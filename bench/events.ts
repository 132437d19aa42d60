/**
 * Realistic API Gateway HTTP API (payload 2.0) events and a Lambda context, as API Gateway hands them
 * to a route's function after the authorizer resolved the caller (requestContext.authorizer.lambda).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_LENGTH, API_KEY_PREFIX } from '#auth/api-keys';
import type { AuthorizerContext } from '#contract/caller';

export const BENCH_CALLER: AuthorizerContext = { authenticated: true, accountId: 'acct_bench', keyId: 'key_bench' };

export interface RequestShape {
  readonly method: 'GET' | 'POST';
  readonly routePath: string;
  readonly rawPath: string;
  readonly query?: Record<string, string>;
  readonly pathParameters?: Record<string, string>;
  readonly body?: string;
  readonly extraHeaders?: Record<string, string>;
}

const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

export function httpEvent(shape: RequestShape, authorization = 'Bearer pst_bench'): APIGatewayProxyEventV2 {
  const rawQueryString = new URLSearchParams(shape.query ?? {}).toString();
  const routeKey = `${shape.method} ${shape.routePath}`;
  const now = Date.now();
  const event = {
    version: '2.0',
    routeKey,
    rawPath: shape.rawPath,
    rawQueryString,
    headers: {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      authorization,
      'content-length': String(shape.body?.length ?? 0),
      ...(shape.body ? { 'content-type': 'application/json' } : {}),
      host: HOST,
      'user-agent': 'petstore-bench/1.0',
      'x-amzn-trace-id': 'Root=1-67891233-abcdef012345678912345678',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      ...shape.extraHeaders,
    },
    ...(shape.query ? { queryStringParameters: { ...shape.query } } : {}),
    ...(shape.pathParameters ? { pathParameters: { ...shape.pathParameters } } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: { lambda: { ...BENCH_CALLER } },
      domainName: HOST,
      domainPrefix: 'abc123',
      http: { method: shape.method, path: shape.rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'petstore-bench/1.0' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(shape.body ? { body: shape.body } : {}),
    isBase64Encoded: false,
  };
  return event;
}

// The authorizer event and the Lambda context are the local gateway's own (shared/gateway-events.ts), so the
// bench invokes handlers exactly as the local server does.
export { authorizerEvent as authorizerEventFor, lambdaContext } from '#shared/gateway-events';

/** A string shaped like an API key that no one issued: its checksum fails (a random or mistyped key). */
export const madeUpKey = (): string =>
  `${API_KEY_PREFIX}${randomBytes(64)
    .toString('base64url')
    .slice(0, API_KEY_LENGTH - API_KEY_PREFIX.length)}`;

/** The request of each operation, as API Gateway hands it over (paths from the route table's shapes). */
export const requestOf = {
  listPets: (query: Record<string, string> = {}, authorization?: string): APIGatewayProxyEventV2 =>
    httpEvent(
      { method: 'GET', routePath: '/v1/pets', rawPath: '/v1/pets', ...(Object.keys(query).length > 0 ? { query } : {}) },
      authorization,
    ),
  createPet: (body: object, idempotencyKey?: string): APIGatewayProxyEventV2 =>
    httpEvent({
      method: 'POST',
      routePath: '/v1/pets',
      rawPath: '/v1/pets',
      body: JSON.stringify(body),
      ...(idempotencyKey === undefined ? {} : { extraHeaders: { 'idempotency-key': idempotencyKey } }),
    }),
  getPet: (petId: number): APIGatewayProxyEventV2 =>
    httpEvent({ method: 'GET', routePath: '/v1/pets/{petId}', rawPath: `/v1/pets/${petId}`, pathParameters: { petId: String(petId) } }),
  submitMessage: (message: string): APIGatewayProxyEventV2 =>
    httpEvent({ method: 'POST', routePath: '/messages', rawPath: '/messages', body: JSON.stringify({ message }) }),
  notFound: (): APIGatewayProxyEventV2 => httpEvent({ method: 'GET', routePath: '$default', rawPath: '/v1/nowhere' }),
};

/** An account API request as API Gateway hands it over once its JWT authorizer accepted the access token. */
export function accountRequest(
  shape: RequestShape,
  account: { readonly sub: string; readonly issuer: string; readonly clientId: string },
): APIGatewayProxyEventV2 {
  const event = httpEvent(shape, 'Bearer header.payload.signature');
  const claims = {
    sub: account.sub,
    username: account.sub,
    token_use: 'access',
    client_id: account.clientId,
    iss: account.issuer,
    exp: String(Math.floor(Date.now() / 1000) + 300),
  };
  return { ...event, requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: [] } } } } as APIGatewayProxyEventV2;
}
