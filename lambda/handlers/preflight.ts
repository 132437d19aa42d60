import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Serves `OPTIONS /{proxy+}`, which exists only when a stage configures CORS (lib/petstore-http-api.ts):
 * without that route the `$default` route, authorizer included, would catch browser preflights and
 * answer 401. API Gateway adds the configured CORS headers to this answer and ignores any the function
 * sets, so it says nothing but 204. Not built with http-handler.ts on purpose: there is no caller, no
 * input and no error to shape, and nothing to load at cold start.
 */
export const handler = (): Promise<APIGatewayProxyStructuredResultV2> => Promise.resolve({ statusCode: 204 });
