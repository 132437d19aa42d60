/**
 * The local gateway must hand handlers the same payload 2.0 events API Gateway HTTP APIs do, and
 * treat authorizer and function results the same way. Recording functions stand in for the handlers.
 */
import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { GatewayFunctions, LambdaFunction } from '#local/gateway/functions';
import { GATEWAY_MAX_REQUEST_HEAD_BYTES, LAMBDA_MAX_SYNC_PAYLOAD_BYTES } from '#shared/gateway-answers';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import { contractViolations } from '#openapi/contract-check';
import { rawRequest } from '../support/raw-http';

type Event = APIGatewayProxyEventV2WithLambdaAuthorizer<Record<string, unknown>>;

let api: LocalApi;
let functions: GatewayFunctions;
const seen: { authorizer: APIGatewayRequestAuthorizerEventV2[]; handler: Event[] } = { authorizer: [], handler: [] };
let authorizerAnswer: unknown = { isAuthorized: true, context: { authenticated: true, accountId: 'a1', keyId: 'k1' } };
let handlerAnswer: unknown = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };

const recordingHandler: LambdaFunction = (event) => {
  seen.handler.push(event as Event);
  return handlerAnswer instanceof Error ? Promise.reject(handlerAnswer) : Promise.resolve(handlerAnswer);
};

beforeAll(async () => {
  functions = {
    authorizer: (event) => {
      seen.authorizer.push(event as APIGatewayRequestAuthorizerEventV2);
      return authorizerAnswer instanceof Error ? Promise.reject(authorizerAnswer) : Promise.resolve(authorizerAnswer);
    },
    notFound: recordingHandler,
    preflight: recordingHandler,
    operations: new Map([
      ['listPets', recordingHandler],
      ['createPet', recordingHandler],
      ['getPet', recordingHandler],
      ['submitMessage', recordingHandler],
    ]),
  };
  api = await startLocalApi({ functions });
});
afterAll(async () => api.close());
beforeEach(() => {
  seen.authorizer.length = 0;
  seen.handler.length = 0;
  authorizerAnswer = { isAuthorized: true, context: { authenticated: true, accountId: 'a1', keyId: 'k1' } };
  handlerAnswer = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
});

describe('events the gateway builds (payload 2.0)', () => {
  test('a matched route carries routeKey, path parameters, method, request id and the authorizer context', async () => {
    await fetch(`${api.petsBaseUrl}/pets/42`);
    const event = seen.handler[0] as Event;
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /v1/pets/{petId}');
    expect(event.rawPath).toBe('/v1/pets/42');
    expect(event.pathParameters).toEqual({ petId: '42' });
    expect(event.requestContext.routeKey).toBe('GET /v1/pets/{petId}');
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.requestContext.requestId).toEqual(expect.any(String));
    expect(event.requestContext.stage).toBe('$default');
    expect(event.requestContext.authorizer.lambda).toEqual({ authenticated: true, accountId: 'a1', keyId: 'k1' });
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });

  test('header names are lower-cased and repeated headers joined with commas; cookies are split out', async () => {
    await rawRequest(api.origin, [
      'GET /v1/pets HTTP/1.1',
      `Host: localhost:${api.port}`,
      'X-Custom: one',
      'x-custom: two',
      'Cookie: a=1; b=2',
      'Authorization: Bearer k',
    ]);
    const event = seen.handler[0] as Event;
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.headers.authorization).toBe('Bearer k');
    expect(event.headers.host).toBe(`localhost:${api.port}`);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers['x-forwarded-proto']).toBe('http');
  });

  test('repeated query parameters are joined with commas and values percent-decoded', async () => {
    await fetch(`${api.petsBaseUrl}/pets?limit=1&limit=2&status=a%20b`);
    const event = seen.handler[0] as Event;
    expect(event.rawQueryString).toBe('limit=1&limit=2&status=a%20b');
    expect(event.queryStringParameters).toEqual({ limit: '1,2', status: 'a b' });
  });

  test('a JSON body arrives as text, a binary body base64-encoded', async () => {
    await fetch(`${api.petsBaseUrl}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' });
    await fetch(`${api.petsBaseUrl}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([0, 255, 1]),
    });
    const [json, binary] = seen.handler as [Event, Event];
    expect({ body: json.body, isBase64Encoded: json.isBase64Encoded }).toEqual({ body: '{"a":"é"}', isBase64Encoded: false });
    expect({ body: binary.body, isBase64Encoded: binary.isBase64Encoded }).toEqual({
      body: Buffer.from([0, 255, 1]).toString('base64'),
      isBase64Encoded: true,
    });
  });

  test('an unknown route goes to the $default function', async () => {
    await fetch(`${api.origin}/nowhere?x=1`, { method: 'PATCH' });
    const event = seen.handler[0] as Event;
    expect(event.routeKey).toBe('$default');
    expect(event.requestContext.http.method).toBe('PATCH');
  });

  test('the authorizer gets a REQUEST event (payload 2.0) with no identity source', async () => {
    await fetch(`${api.petsBaseUrl}/pets?limit=3`, { headers: { authorization: 'Bearer x' } });
    const event = seen.authorizer[0] as APIGatewayRequestAuthorizerEventV2;
    expect(event).toMatchObject({ version: '2.0', type: 'REQUEST', identitySource: [], routeKey: 'GET /v1/pets', rawPath: '/v1/pets' });
    expect(event.headers?.authorization).toBe('Bearer x');
    expect(event.queryStringParameters).toEqual({ limit: '3' });
  });
});

describe('results the gateway writes back', () => {
  test('status, headers, cookies and body of a structured result', async () => {
    handlerAnswer = {
      statusCode: 201,
      headers: { 'X-Thing': 'yes', 'content-type': 'application/json' },
      cookies: ['s=1; HttpOnly', 't=2'],
      body: '{"ok":true}',
    };
    const response = await fetch(`${api.petsBaseUrl}/pets`);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-thing')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['s=1; HttpOnly', 't=2']);
    expect(response.headers.get('apigw-requestid')).toEqual(expect.any(String));
    expect(await response.json()).toEqual({ ok: true });
  });

  test('a base64-encoded result body is decoded', async () => {
    handlerAnswer = { statusCode: 200, isBase64Encoded: true, body: Buffer.from('bytes').toString('base64') };
    expect(await (await fetch(`${api.petsBaseUrl}/pets`)).text()).toBe('bytes');
  });

  test('a result without statusCode is sent as 200 JSON, as API Gateway infers', async () => {
    handlerAnswer = { hello: 'world' };
    const response = await fetch(`${api.petsBaseUrl}/pets`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ hello: 'world' });
  });

  test('an authorizer deny answers 403 {"message":"Forbidden"} without running the handler', async () => {
    authorizerAnswer = { isAuthorized: false };
    const response = await fetch(`${api.petsBaseUrl}/pets`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Forbidden' });
    expect(seen.handler).toHaveLength(0);
  });

  test('a failing authorizer or function answers 500 {"message":"Internal Server Error"}, as API Gateway does', async () => {
    authorizerAnswer = new Error('boom');
    await expectGatewayAnswer('GET', `${api.petsBaseUrl}/pets`, await fetch(`${api.petsBaseUrl}/pets`), 500, 'Internal Server Error');
    authorizerAnswer = { isAuthorized: true, context: {} };
    handlerAnswer = new Error('boom');
    await expectGatewayAnswer('GET', `${api.petsBaseUrl}/pets`, await fetch(`${api.petsBaseUrl}/pets`), 500, 'Internal Server Error');
  });
});

/**
 * API Gateway's own answers: `{"message": …}`, no Content-Type, an `apigw-requestid`, none of the
 * service's headers; each must be an answer the OpenAPI document of its API documents for the operation (GatewayError).
 */
async function expectGatewayAnswer(method: string, url: string, response: Response, status: number, message: string): Promise<void> {
  const text = await response.text();
  expect({ status: response.status, body: JSON.parse(text) as unknown }).toEqual({ status, body: { message } });
  expect(response.headers.get('content-type')).toBeNull();
  expect(response.headers.get('cache-control')).toBeNull();
  expect(response.headers.get('apigw-requestid')).toEqual(expect.any(String));
  expect(contractViolations({ method, url }, { status: response.status, headers: response.headers, text }).problems).toEqual([]);
}

describe('answers API Gateway and Lambda give by themselves', () => {
  test('a body over the 10 MB gateway limit answers 413 {"message":"Request Entity Too Large"} without running anything', async () => {
    const url = `${api.petsBaseUrl}/pets`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    await expectGatewayAnswer('POST', url, response, 413, 'Request Entity Too Large');
    expect(seen.authorizer).toHaveLength(0);
    expect(seen.handler).toHaveLength(0);
  });

  test('a request line and header values of 10,240 bytes pass; one byte more answers 431 {"message":"Request Header Fields Too Large"} without running anything', async () => {
    // rawRequest adds `connection: close` and `content-length: 0`: their values count too.
    const head = (padding: number) => ['GET /v1/pets HTTP/1.1', `Host: 127.0.0.1:${api.port}`, `X-Pad: ${'p'.repeat(padding)}`];
    const fixedBytes = 'GET /v1/pets HTTP/1.1'.length + `127.0.0.1:${api.port}`.length + 'close'.length + '0'.length;
    const atQuota = await rawRequest(api.origin, head(GATEWAY_MAX_REQUEST_HEAD_BYTES - fixedBytes));
    expect(atQuota.status).toBe(200);
    expect(seen.handler).toHaveLength(1);

    const over = await rawRequest(api.origin, head(GATEWAY_MAX_REQUEST_HEAD_BYTES - fixedBytes + 1));
    expect({ status: over.status, body: JSON.parse(over.body) as unknown }).toEqual({
      status: 431,
      body: { message: 'Request Header Fields Too Large' },
    });
    expect(over.headers['content-type']).toBeUndefined();
    expect(over.headers['apigw-requestid']).toEqual(expect.any(String));
    expect(seen.authorizer).toHaveLength(1);
    expect(seen.handler).toHaveLength(1);
  });

  test("a body under 10 MB whose event exceeds Lambda's 6 MB payload limit answers 413 after the authorizer, without running the function", async () => {
    const url = `${origin()}/messages`;
    // 4.55 MiB of bytes travel base64-encoded: over 6 MiB of event.
    const binary = new Uint8Array(Math.ceil((LAMBDA_MAX_SYNC_PAYLOAD_BYTES * 3) / 4) + 50_000);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: binary });
    await expectGatewayAnswer('POST', url, response, 413, 'Request Entity Too Large');
    expect(seen.authorizer).toHaveLength(1);
    expect(seen.handler).toHaveLength(0);
    // Escapes count too: 1.1 M control characters are 6.6 MB of JSON in the event.
    const escaped = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\u0001'.repeat(1_100_000) });
    await expectGatewayAnswer('POST', url, escaped, 413, 'Request Entity Too Large');
    expect(seen.handler).toHaveLength(0);
  });

  test('a body whose event stays under the Lambda limit reaches the function', async () => {
    const binary = new Uint8Array(Math.floor((LAMBDA_MAX_SYNC_PAYLOAD_BYTES * 3) / 4) - 100_000);
    const response = await fetch(`${origin()}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: binary,
    });
    expect(response.status).toBe(200);
    expect(seen.handler).toHaveLength(1);
  });

  test('a function that outlives its timeout answers 500 {"message":"Internal Server Error"}', async () => {
    const slow = await startLocalApi({
      functions: { ...functions, operations: new Map([['listPets', () => new Promise(() => undefined)]]) },
      functionTimeoutMs: 300,
    });
    try {
      const url = `${slow.petsBaseUrl}/pets`;
      const started = performance.now();
      await expectGatewayAnswer('GET', url, await fetch(url), 500, 'Internal Server Error');
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.close();
    }
  });

  test('over the stage\'s rate and burst an API answers 429 {"message":"Too Many Requests"} before the authorizer; each route has its own bucket', async () => {
    // The throttle's clock stands still unless the test moves it: no request races a refill.
    let clockMs = 0;
    const throttled = await startLocalApi({ functions, throttle: { rateLimit: 2, burstLimit: 3 }, now: () => clockMs });
    try {
      const pets = `${throttled.petsBaseUrl}/pets`;
      const statuses = [];
      for (let index = 0; index < 4; index++) statuses.push((await fetch(pets)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await fetch(pets);
      // API Gateway says nothing about when to retry: clients back off on their own (the document says how).
      expect(refused.headers.get('retry-after')).toBeNull();
      await expectGatewayAnswer('GET', pets, refused, 429, 'Too Many Requests');
      expect(seen.authorizer).toHaveLength(3);
      // Another route draws on its own bucket (AWS applies a stage's default route throttle to each route): the
      // messages API, and an unknown path outside /v1 (its $default).
      expect((await fetch(`${throttled.origin}/messages`, { method: 'POST' })).status).toBe(200);
      expect((await fetch(`${throttled.origin}/nowhere`)).status).toBe(200);
      // So does the account API (here without its identity provider: the gateway's 500, not 429).
      for (let index = 0; index < 3; index++) expect((await fetch(`${throttled.origin}/account/keys`)).status).toBe(500);
      // The bucket refills at the rate limit: one token every 500 ms.
      clockMs += 499;
      expect((await fetch(pets)).status).toBe(429);
      clockMs += 1;
      expect((await fetch(pets)).status).toBe(200);
      expect((await fetch(pets)).status).toBe(429);
    } finally {
      await throttled.close();
    }
  });

  test("a browser on a configured origin can read the throttle's 429: the gateway's own answers carry the CORS headers too", async () => {
    const origin = 'https://app.example.com';
    const throttled = await startLocalApi({ functions, corsOrigins: [origin], throttle: { rateLimit: 1, burstLimit: 1 }, now: () => 0 });
    try {
      const pets = `${throttled.petsBaseUrl}/pets`;
      expect((await fetch(pets, { headers: { origin } })).status).toBe(200);
      const refused = await fetch(pets, { headers: { origin } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
      expect(
        (await fetch(pets, { headers: { origin: 'https://elsewhere.example' } })).headers.get('access-control-allow-origin'),
      ).toBeNull();
    } finally {
      await throttled.close();
    }
  });
});

const origin = (): string => api.origin;
