/**
 * API Gateway HTTP APIs in front of the handlers: payload 2.0 events, the authorizers, the route's function, its result
 * read back as API Gateway does. Shared by the local server (local/gateway/server.ts) and the stage check's pre-traffic
 * run against new versions (lambda/handlers/stage-check.ts). Hand-written: SAM local and serverless-offline need Docker
 * or their own config and drift from the route table; this one reads shared/routes.ts, like the CDK stack.
 */
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS } from './function-settings';
import {
  ACCOUNT_BASE_PATH,
  ALL_ROUTES,
  PETS_BASE_PATH,
  PREFLIGHT_ROUTE,
  type ApiName,
  type OperationId,
  type RouteDefinition,
} from './routes';
import { GATEWAY_ANSWERS, LAMBDA_MAX_SYNC_PAYLOAD_BYTES, type GatewayAnswerStatus } from './gateway-answers';

export type LambdaFunction = (event: unknown, context: Context) => Promise<unknown>;

export interface GatewayFunctions {
  readonly authorizer: LambdaFunction;
  readonly notFound: LambdaFunction;
  readonly accountNotFound?: LambdaFunction;
  readonly preflight: LambdaFunction;
  readonly operations: ReadonlyMap<OperationId, LambdaFunction>;
}

/** What the JWT authorizer passes on (`requestContext.authorizer.jwt`: every claim as text), or its challenge. */
export type JwtVerdict =
  | { readonly ok: true; readonly jwt: { readonly claims: Readonly<Record<string, string>>; readonly scopes: null } }
  | { readonly ok: false; readonly challenge: string };

/** The account API's native JWT authorizer (local/gateway/jwt-authorizer.ts). */
export type JwtAuthorizer = (authorization: string | undefined, now?: Date) => Promise<JwtVerdict>;

/** JSON escaping makes one UTF-16 unit of a string at most 6 bytes (`\u0000`); below this, no event is near the limit. */
const EVENT_SIZE_CHECK_FROM_CHARS = Math.floor(LAMBDA_MAX_SYNC_PAYLOAD_BYTES / 6) - 64 * 1024;
export const FUNCTION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;
const LOCAL_ACCOUNT_ID = '000000000000';
const LOCAL_API_ID = 'local';

function compile(route: RouteDefinition) {
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

/** Which API a request reaches: the three share one origin (pets under `/v1`, account under `/account`, messages the rest). */
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

/**
 * Repeated names joined with commas, as payload 2.0 joins them. A Map, then own properties, as Lambda's JSON.parse
 * makes them: assigned to `{}`, `__proto__` would set the prototype (and vanish from the handler's view) and
 * `constructor` would find Object's.
 */
function joinRepeated(pairs: Iterable<readonly [string, string]>): Record<string, string> {
  const joined = new Map<string, string>();
  for (const [name, value] of pairs) {
    const earlier = joined.get(name);
    joined.set(name, earlier === undefined ? value : `${earlier},${value}`);
  }
  return Object.fromEntries(joined);
}

/** Payload 2.0: header names lower-cased, repeated headers joined with commas, cookies apart. */
function collectHeaders(rawHeaders: readonly string[]): { headers: Record<string, string>; cookies: string[] } {
  const pairs: [string, string][] = [];
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const value = rawHeaders[index + 1] as string;
    if (name === 'cookie') cookies.push(...value.split(';').flatMap((cookie) => cookie.trim() || []));
    else pairs.push([name, value]);
  }
  return { headers: joinRepeated(pairs), cookies };
}

/** Payload 2.0: repeated query parameters joined with commas, values percent-decoded. */
function collectQuery(rawQueryString: string): Record<string, string> | undefined {
  return rawQueryString === '' ? undefined : joinRepeated(new URLSearchParams(rawQueryString));
}

const TEXT_CONTENT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;
// ignoreBOM: a leading byte order mark is passed on as the client sent it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text bodies travel as strings, anything else (or invalid UTF-8) base64-encoded, as in API Gateway. */
function encodeBody(body: Buffer, contentType: string | undefined): { body?: string; isBase64Encoded: boolean } {
  if (body.length === 0) return { isBase64Encoded: false };
  if (contentType && TEXT_CONTENT_TYPE.test(contentType)) {
    try {
      return { body: utf8.decode(body), isBase64Encoded: false };
    } catch {
      // not UTF-8: base64-encoded below
    }
  }
  return { body: body.toString('base64'), isBase64Encoded: true };
}

/** `requestContext.time` in API Gateway's (Common Log Format) form: `23/Nov/2026:18:37:54 +0000`. */
function clfTime(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

export const gatewayRequestId = (): string => randomBytes(12).toString('base64');

type GatewayRequest = Pick<IncomingMessage, 'url' | 'method' | 'rawHeaders' | 'httpVersion'> & {
  readonly socket: { readonly localPort?: number | undefined };
};

export function buildEvent(request: GatewayRequest, body: Buffer, match: RouteMatch, sourceIp: string): APIGatewayProxyEventV2 {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const { socket } = request;
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

/** A Lambda context for one invocation: fresh request id, remaining time against the local timeout. */
export function lambdaContext(functionName: string, timeoutMs: number = FUNCTION_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  // Without the callback-style members (done, fail, succeed) Context still declares: no handler here calls them.
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
  } as Context;
}

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

/** An answer API Gateway gives by itself: `{"message": …}` and no content type, as captured from HTTP APIs. */
export const gatewayAnswer = (statusCode: GatewayAnswerStatus, headers: Record<string, string> = {}): GatewayResponse => ({
  statusCode,
  headers,
  cookies: [],
  body: Buffer.from(JSON.stringify({ message: GATEWAY_ANSWERS[statusCode].message })),
});

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
    if (typeof structured.statusCode !== 'number') return gatewayAnswer(500);
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

/** The Lambda authorizer (simple responses): what it passes on, or the gateway's own answer. */
async function lambdaAuthorization(functions: GatewayFunctions, event: APIGatewayProxyEventV2, timeoutMs: number) {
  type Simple = { isAuthorized?: unknown; context?: Record<string, unknown> } | null;
  const simple = (await invoke(functions.authorizer, 'authorizer', authorizerEvent(event), timeoutMs).catch(() => null)) as Simple;
  if (typeof simple?.isAuthorized !== 'boolean') return gatewayAnswer(500);
  return simple.isAuthorized ? { lambda: simple.context ?? {} } : gatewayAnswer(403);
}

/** The account API's native JWT authorizer (local/gateway/jwt-authorizer.ts); without Cognito it cannot work and answers 500. */
async function jwtAuthorization(authorize: JwtAuthorizer | undefined, event: APIGatewayProxyEventV2) {
  const verdict = await authorize?.(event.headers.authorization);
  if (!verdict) return gatewayAnswer(500);
  return verdict.ok ? { jwt: verdict.jwt } : gatewayAnswer(401, { 'www-authenticate': verdict.challenge });
}

/** One request: the API's authorizer (the JWT one for the `account` API), then the route's function or `$default`. */
export async function dispatch(
  functions: GatewayFunctions,
  event: APIGatewayProxyEventV2,
  route: RouteDefinition | undefined,
  functionTimeoutMs: number = FUNCTION_TIMEOUT_MS,
  account?: { readonly authorizer: JwtAuthorizer | undefined },
): Promise<GatewayResponse> {
  const authorizer = account
    ? await jwtAuthorization(account.authorizer, event)
    : await lambdaAuthorization(functions, event, functionTimeoutMs);
  if ('statusCode' in authorizer) return authorizer;
  event.requestContext = { ...event.requestContext, authorizer } as typeof event.requestContext;
  const name = route?.operationId ?? (account ? 'accountNotFound' : 'notFound');
  const fn = route ? functions.operations.get(route.operationId) : account ? functions.accountNotFound : functions.notFound;
  if (!fn) return gatewayAnswer(500);
  // Lambda refuses the invocation itself (RequestEntityTooLargeException), so the function never runs.
  const large = (event.body?.length ?? 0) >= EVENT_SIZE_CHECK_FROM_CHARS;
  if (large && Buffer.byteLength(JSON.stringify(event)) > LAMBDA_MAX_SYNC_PAYLOAD_BYTES) return gatewayAnswer(413);
  // A failed or timed-out integration is API Gateway's 500.
  return invoke(fn, name, event, functionTimeoutMs).then(toGatewayResponse, () => gatewayAnswer(500));
}

/** `{proxy+}` needs at least one character. */
export const isPreflightRoute = (method: string, path: string): boolean =>
  method === PREFLIGHT_ROUTE.method && path.startsWith('/') && path.length > 1;

/** PREFLIGHT_ROUTE's function, without authorizer; it failing is API Gateway's 500. */
export function answerPreflight(preflight: LambdaFunction, event: APIGatewayProxyEventV2): Promise<GatewayResponse> {
  const routeKey = `${PREFLIGHT_ROUTE.method} ${PREFLIGHT_ROUTE.path}`;
  const routed = {
    ...event,
    routeKey,
    pathParameters: { proxy: event.rawPath.slice(1) },
    requestContext: { ...event.requestContext, routeKey },
  };
  return invoke(preflight, 'preflight', routed).then(toGatewayResponse, () => gatewayAnswer(500));
}

/**
 * `fetch` answered as a deployed stage's gateway would, with no socket: API Gateway's own events for the pre-traffic
 * hook (lambda/handlers/stage-check.ts) and tests. Every request carries `extraHeaders` as the front door would add
 * them; OPTIONS takes the preflight route (every stage has it; API Gateway adds the CORS headers, not done here); the
 * account API's requests get `accountAuthorizer`'s verdict, standing in for its JWT authorizer.
 */
export const fetchThrough =
  (functions: GatewayFunctions, extraHeaders: Record<string, string> = {}, accountAuthorizer?: JwtAuthorizer): typeof fetch =>
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
    const account = apiOf(match, pathname) === 'account' ? { authorizer: accountAuthorizer } : undefined;
    const answer = isPreflightRoute(request.method, pathname)
      ? await answerPreflight(functions.preflight, event)
      : await dispatch(functions, event, match.route, FUNCTION_TIMEOUT_MS, account);
    const body = [204, 304].includes(answer.statusCode) ? null : answer.body;
    return new Response(body, { status: answer.statusCode, headers: answer.headers });
  };
