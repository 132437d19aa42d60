/**
 * Emulates API Gateway HTTP API in front of the handlers: turns a Node request into the payload 2.0
 * event API Gateway would send, runs the Lambda authorizer (simple responses) and then the route's
 * function, and writes the function's result back the way API Gateway does. Hand-written because the
 * usual emulators (SAM local, serverless-offline) need Docker or their own config and drift from the
 * route table; this one reads shared/routes.ts, like the CDK stack.
 */
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from '#shared/function-settings';
import { ACCOUNT_BASE_PATH, ALL_ROUTES, PETS_BASE_PATH, type ApiName, type RouteDefinition } from '#shared/routes';
import { GATEWAY_ANSWERS, LAMBDA_MAX_SYNC_PAYLOAD_BYTES, type GatewayAnswerStatus } from '#shared/gateway-answers';
import type { GatewayFunctions, LambdaFunction } from './functions';

/** JSON escaping makes one UTF-16 unit of a string at most 6 bytes (`\u0000`); below this, no event is near the limit. */
const EVENT_SIZE_CHECK_FROM_CHARS = Math.floor(LAMBDA_MAX_SYNC_PAYLOAD_BYTES / 6) - 64 * 1024;
/** The Lambda timeout the stack configures, in the units timers take. */
export const FUNCTION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;
const LOCAL_ACCOUNT_ID = '000000000000';
const LOCAL_API_ID = 'local';

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly parameterNames: readonly string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const parameterNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (!parameter?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      parameterNames.push(parameter[1]);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), parameterNames };
}

const COMPILED_ROUTES = ALL_ROUTES.map(compile);

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Which HTTP API a request reaches. All three share one local origin: the pets API's base URL is
 * `<origin>/v1`, the account API's `<origin>/account`, the messages API's the origin itself, so an
 * unknown path under `/v1` is the pets API's `$default`, one under `/account` the account API's, and
 * any other one the messages API's.
 */
export function apiOf(match: RouteMatch, rawPath: string): ApiName {
  if (match.route) return match.route.api;
  const under = (base: string) => rawPath === base || rawPath.startsWith(`${base}/`);
  return under(PETS_BASE_PATH) ? 'pets' : under(ACCOUNT_BASE_PATH) ? 'account' : 'messages';
}

export interface RouteMatch {
  readonly route?: RouteDefinition;
  readonly pathParameters?: Record<string, string>;
}

export function matchRoute(method: string, rawPath: string): RouteMatch {
  for (const { route, pattern, parameterNames } of COMPILED_ROUTES) {
    if (route.method !== method) continue;
    const match = pattern.exec(rawPath);
    if (!match) continue;
    const pathParameters: Record<string, string> = {};
    parameterNames.forEach((name, index) => (pathParameters[name] = safeDecode(match[index + 1] ?? '')));
    return { route, ...(parameterNames.length > 0 ? { pathParameters } : {}) };
  }
  return {};
}

/** Payload 2.0: header names lower-cased, repeated headers joined with commas, cookies apart. */
function collectHeaders(rawHeaders: readonly string[]): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const value = rawHeaders[index + 1] as string;
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter(Boolean),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return { headers, cookies };
}

/** Payload 2.0: repeated query parameters joined with commas, values percent-decoded. */
function collectQuery(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    query[name] = name in query ? `${query[name]},${value}` : value;
  }
  return query;
}

const TEXT_CONTENT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;
// ignoreBOM: a leading byte order mark is passed on as the client sent it, not silently dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text bodies travel as strings, anything else (or invalid UTF-8) base64-encoded, as in API Gateway. */
function encodeBody(body: Buffer, contentType: string | undefined): { body?: string; isBase64Encoded: boolean } {
  if (body.length === 0) return { isBase64Encoded: false };
  if (contentType && TEXT_CONTENT_TYPE.test(contentType)) {
    try {
      return { body: utf8.decode(body), isBase64Encoded: false };
    } catch {
      // not UTF-8: pass it on untouched, base64-encoded
    }
  }
  return { body: body.toString('base64'), isBase64Encoded: true };
}

/** `requestContext.time` in API Gateway's (Common Log Format) form: `23/Nov/2026:18:37:54 +0000`. */
function clfTime(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

/** API Gateway's request ids are 12 random bytes in base64. */
export const gatewayRequestId = (): string => randomBytes(12).toString('base64');

/** What an event is built from: a Node request, or what fetchThrough makes of a fetch one. */
type GatewayRequest = Pick<IncomingMessage, 'url' | 'method' | 'rawHeaders' | 'httpVersion'> & {
  readonly socket: { readonly localPort?: number | undefined };
};

export function buildEvent(request: GatewayRequest, body: Buffer, match: RouteMatch, sourceIp: string): APIGatewayProxyEventV2 {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const socket = request.socket;
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-port'] = String(socket.localPort ?? '');
  headers['x-forwarded-proto'] = 'http';
  const method = (request.method ?? 'GET').toUpperCase();
  const routeKey = match.route ? `${match.route.method} ${match.route.path}` : '$default';
  const now = new Date();
  const queryStringParameters = collectQuery(rawQueryString);
  const host = headers.host ?? `127.0.0.1:${socket.localPort ?? ''}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(match.pathParameters ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      domainName: host,
      domainPrefix: host.split('.')[0] ?? host,
      http: {
        method,
        path: safeDecode(rawPath),
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: gatewayRequestId(),
      routeKey,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...encodeBody(body, headers['content-type']),
  };
}

export function authorizerEvent(event: APIGatewayProxyEventV2): APIGatewayRequestAuthorizerEventV2 {
  const { method } = event.requestContext.http;
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:us-east-1:${LOCAL_ACCOUNT_ID}:${LOCAL_API_ID}/$default/${method}${event.rawPath}`,
    identitySource: [],
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    cookies: event.cookies ?? [],
    headers: event.headers,
    ...(event.queryStringParameters ? { queryStringParameters: event.queryStringParameters } : {}),
    requestContext: event.requestContext,
    ...(event.pathParameters ? { pathParameters: event.pathParameters } : {}),
  };
}

const callbackStyleCompletion = (): never => {
  throw new Error('callback-style completion is not used');
};

/** A Lambda context for one invocation: fresh request id, remaining time against the local timeout. */
export function lambdaContext(functionName: string, timeoutMs: number = FUNCTION_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: String(FUNCTION_MEMORY_MB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    // The Context type still requires the callback-style members, deprecated since Node.js 8 runtimes.
    /* eslint-disable @typescript-eslint/no-deprecated */
    done: callbackStyleCompletion,
    fail: callbackStyleCompletion,
    succeed: callbackStyleCompletion,
    /* eslint-enable @typescript-eslint/no-deprecated */
  };
}

/** Runs a function like Lambda would: a fresh context and a hard timeout. */
export async function invoke(fn: LambdaFunction, name: string, event: unknown, timeoutMs: number = FUNCTION_TIMEOUT_MS): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} timed out`)), timeoutMs);
  });
  try {
    return await Promise.race([fn(event, lambdaContext(name, timeoutMs)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface GatewayResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies: readonly string[];
  readonly body: Buffer;
}

/**
 * An answer API Gateway gives by itself: `{"message": …}`, no content type (as captured from HTTP
 * APIs), none of the function's headers. The writer adds `apigw-requestid`, as API Gateway does.
 */
export const gatewayAnswer = (statusCode: GatewayAnswerStatus): GatewayResponse => ({
  statusCode,
  headers: {},
  cookies: [],
  body: Buffer.from(JSON.stringify({ message: GATEWAY_ANSWERS[statusCode].message })),
});

/** What API Gateway answers when a function (or the authorizer) fails, times out or answers nonsense. */
const internalServerError = (): GatewayResponse => gatewayAnswer(500);

/** Whether Lambda would refuse this event as a synchronous invocation's payload. */
export function exceedsLambdaPayloadLimit(event: APIGatewayProxyEventV2): boolean {
  if ((event.body?.length ?? 0) < EVENT_SIZE_CHECK_FROM_CHARS) return false;
  return Buffer.byteLength(JSON.stringify(event)) > LAMBDA_MAX_SYNC_PAYLOAD_BYTES;
}

/** API Gateway's reading of a payload 2.0 result: structured when it has `statusCode`, else 200 JSON. */
export function toGatewayResponse(result: unknown): GatewayResponse {
  if (result !== null && typeof result === 'object' && 'statusCode' in result) {
    const structured = result as {
      statusCode: unknown;
      headers?: Record<string, unknown>;
      cookies?: unknown;
      body?: unknown;
      isBase64Encoded?: unknown;
    };
    if (typeof structured.statusCode !== 'number') return internalServerError();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name.toLowerCase()] = String(value);
    const body = typeof structured.body === 'string' ? structured.body : '';
    return {
      statusCode: structured.statusCode,
      headers,
      cookies: Array.isArray(structured.cookies) ? structured.cookies.map(String) : [],
      body: Buffer.from(body, structured.isBase64Encoded === true ? 'base64' : 'utf8'),
    };
  }
  const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, cookies: [], body: Buffer.from(body) };
}

/** One request through the emulated gateway: authorizer, then the route's function (or `$default`). */
export async function dispatch(
  functions: GatewayFunctions,
  event: APIGatewayProxyEventV2,
  route: RouteDefinition | undefined,
  /** Lambda's timeout; only tests shorten it. */
  functionTimeoutMs: number = FUNCTION_TIMEOUT_MS,
): Promise<GatewayResponse> {
  let authorization: unknown;
  try {
    authorization = await invoke(functions.authorizer, 'authorizer', authorizerEvent(event), functionTimeoutMs);
  } catch {
    return internalServerError();
  }
  const simple = authorization as { isAuthorized?: unknown; context?: Record<string, unknown> } | null;
  if (typeof simple?.isAuthorized !== 'boolean') return internalServerError();
  if (!simple.isAuthorized) return gatewayAnswer(403);
  event.requestContext = { ...event.requestContext, authorizer: { lambda: simple.context ?? {} } } as typeof event.requestContext;

  const name = route?.operationId ?? 'notFound';
  const fn = route ? functions.operations.get(route.operationId) : functions.notFound;
  if (!fn) return internalServerError();
  // Lambda refuses the invocation itself (RequestEntityTooLargeException), so the function never runs.
  if (exceedsLambdaPayloadLimit(event)) return gatewayAnswer(413);
  try {
    return toGatewayResponse(await invoke(fn, name, event, functionTimeoutMs));
  } catch {
    // What API Gateway answers when the integration fails or times out.
    return internalServerError();
  }
}

/** The whole body, or `too_large` (read to its end, kept no further) past `maxBytes`; rejects if the client goes away first. */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolveBody(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
    // A cut connection (or the server's request timeout) ends the request without 'end'.
    request.on('close', () => {
      if (!request.complete) reject(new Error('the request was not received in full'));
    });
  });
}

export function writeResponse(response: ServerResponse, result: GatewayResponse, requestId: string): void {
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
  if (result.cookies.length > 0) response.setHeader('set-cookie', [...result.cookies]);
  response.setHeader('apigw-requestid', requestId);
  response.setHeader('content-length', result.body.length);
  response.end(result.body);
}

/**
 * `fetch`, answered by the gateway's dispatch with no socket: the stage check's pre-traffic hook puts API Gateway's
 * own events in front of a deploy's new versions (scripts/smoke/stage-check.ts), and the tests in front of
 * handlers of their choosing. Every request carries `extraHeaders` as the front door would add them.
 */
export const fetchThrough =
  (functions: GatewayFunctions, extraHeaders: Record<string, string> = {}): typeof fetch =>
  async (input, init) => {
    const request = new Request(input, init);
    const { host, pathname, search } = new URL(request.url);
    const headers = [['host', host], ...request.headers, ...Object.entries(extraHeaders)];
    const match = matchRoute(request.method, pathname);
    const gatewayRequest = {
      url: `${pathname}${search}`,
      method: request.method,
      rawHeaders: headers.flat(),
      httpVersion: '1.1',
      socket: {},
    };
    const event = buildEvent(gatewayRequest, Buffer.from(await request.arrayBuffer()), match, '127.0.0.1');
    const answer = await dispatch(functions, event, match.route);
    const body = [204, 304].includes(answer.statusCode) ? null : answer.body;
    return new Response(body, { status: answer.statusCode, headers: answer.headers });
  };
