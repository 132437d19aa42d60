import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler } from '#handlers/not-found';

/** The first middleware of every handler reads the authorizer's context; invoked here in-process. */
const invoke = (lambda: Record<string, unknown> | undefined) =>
  handler(
    {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/x',
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: {
        requestId: 'r',
        routeKey: '$default',
        http: { method: 'GET', path: '/x' },
        ...(lambda ? { authorizer: { lambda } } : {}),
      },
    } as unknown as APIGatewayProxyEventV2,
    { awsRequestId: 'a' } as never,
  );

beforeAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

describe('the caller check every handler starts with', () => {
  test('an authenticated caller passes (here on to the 404 of an unknown route)', async () => {
    expect((await invoke({ authenticated: true, accountId: 'a', keyId: 'k' })).statusCode).toBe(404);
  });

  test('a context whose boolean arrives as the string "true" still passes', async () => {
    expect((await invoke({ authenticated: 'true', accountId: 'a', keyId: 'k' })).statusCode).toBe(404);
  });

  test('no authorizer context at all fails closed with 401', async () => {
    expect(JSON.parse((await invoke(undefined)).body)).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
  });

  test('an authorizer that could not reach the key store answers 503 with Retry-After', async () => {
    const answer = await invoke({ authenticated: false, reason: 'unavailable' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
  });
});
