/**
 * The local gateway must hand handlers the same payload 2.0 events API Gateway HTTP APIs do, and
 * treat authorizer and function results the same way. Recording functions stand in for the handlers.
 */
import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { GatewayFunctions, LambdaFunction } from '../../local/functions';
import { startLocalApi, type LocalApi } from '../../local/server';
import { rawRequest } from '../support/raw-http';

type Event = APIGatewayProxyEventV2WithLambdaAuthorizer<Record<string, unknown>>;

let api: LocalApi;
const seen: { authorizer: APIGatewayRequestAuthorizerEventV2[]; handler: Event[] } = { authorizer: [], handler: [] };
let authorizerAnswer: unknown = { isAuthorized: true, context: { authenticated: true, accountId: 'a1', keyId: 'k1' } };
let handlerAnswer: unknown = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };

const recordingHandler: LambdaFunction = (event) => {
  seen.handler.push(event as Event);
  return handlerAnswer instanceof Error ? Promise.reject(handlerAnswer) : Promise.resolve(handlerAnswer);
};

beforeAll(async () => {
  const functions: GatewayFunctions = {
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
      'Host: example.test',
      'X-Custom: one',
      'x-custom: two',
      'Cookie: a=1; b=2',
      'Authorization: Bearer k',
    ]);
    const event = seen.handler[0] as Event;
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.headers.authorization).toBe('Bearer k');
    expect(event.headers.host).toBe('example.test');
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

  test('a failing authorizer or function answers 500 {"message":"Internal Server Error"}', async () => {
    authorizerAnswer = new Error('boom');
    expect((await fetch(`${api.petsBaseUrl}/pets`)).status).toBe(500);
    authorizerAnswer = { isAuthorized: true, context: {} };
    handlerAnswer = new Error('boom');
    const response = await fetch(`${api.petsBaseUrl}/pets`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
  });

  test('a body over the 10 MB gateway limit answers 413 with the spec Error body', async () => {
    const response = await fetch(`${api.petsBaseUrl}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 'payload_too_large', message: expect.any(String), status: 413 });
    expect(seen.handler).toHaveLength(0);
  });
});
