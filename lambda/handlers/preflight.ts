import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * `OPTIONS /{proxy+}` (CORS stages), so `$default` does not answer browser preflights 401. API Gateway adds the
 * CORS headers; no http-handler.ts: no caller, input or error, and nothing to load at cold start.
 */
export const handler = (): Promise<APIGatewayProxyStructuredResultV2> => Promise.resolve({ statusCode: 204 });
