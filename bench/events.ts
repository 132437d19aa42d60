/**
 * Realistic API Gateway HTTP API (payload 2.0) events and a Lambda context, as API Gateway hands them
 * to a route's function after the authorizer resolved the caller (requestContext.authorizer.lambda).
 */
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { AuthorizerContext } from '../lambda/shared/caller';

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
  return event as APIGatewayProxyEventV2;
}

export function authorizerEventFor(event: APIGatewayProxyEventV2): APIGatewayRequestAuthorizerEventV2 {
  const { authorizer: _resolvedLater, ...requestContext } = event.requestContext as APIGatewayProxyEventV2['requestContext'] & { authorizer?: unknown };
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:eu-west-1:123456789012:abc123/$default/${event.requestContext.http.method}${event.rawPath}`,
    identitySource: [],
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    cookies: [],
    headers: event.headers as Record<string, string>,
    requestContext,
  };
}

/** Without getRemainingTimeInMillis Middy sets no timeout timer, as the tests do (STYLE.md). */
export function lambdaContext(functionName: string): Context {
  const fail = (): never => {
    throw new Error('callback-style completion is not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
    done: fail,
    fail,
    succeed: fail,
  };
}
