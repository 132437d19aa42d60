/**
 * The account API's OpenAPI 3.1 document (docs/account-openapi.json): a separate document, so the
 * pets and messages document stays the spec's interface. Built like it, from the same route table,
 * zod schemas and response helpers; its callers send a Cognito access token instead of an API key.
 */
import { ACCOUNT_ROUTES } from '../lib/routes';
import { ACCOUNT_ERROR_CODES, ErrorBody, GatewayErrorBody } from '../lambda/shared/schemas/error';
import { ACCOUNT_OPERATIONS } from './account-operations';
import { API_VERSION, BASE_PATHS, operationOf, serversOf } from './document';
import { SchemaConverter } from './json-schema';
import type { HttpMethodKey, OpenApiDocument, Operation, PathItem, Response } from './types';

const SECURITY_SCHEME = 'accessToken';
const SECURITY = [{ [SECURITY_SCHEME]: [] }];

/** What API Gateway's JWT authorizer answers by itself, before any function runs. */
export const GATEWAY_UNAUTHORIZED = { message: 'Unauthorized' } as const;

/**
 * 401 comes from two places: API Gateway's JWT authorizer refuses a missing, malformed, expired or
 * forged token, or one of another app client, with its own body and `WWW-Authenticate` (RFC 6750,
 * `error="invalid_token"` and a description) — HTTP APIs cannot change that answer; the function then
 * refuses, with the service's Error body, a token the gateway lets through but that is no access token
 * of this app (an ID token).
 */
function unauthorized(errorSchema: Response['content'], gatewaySchema: Response['content']): Response {
  const error = errorSchema?.['application/json']?.schema;
  const gateway = gatewaySchema?.['application/json']?.schema;
  if (!error || !gateway) throw new Error('the error schemas are missing');
  return {
    description:
      'Unauthorized. `{"message":"Unauthorized"}`: API Gateway refused the token itself (missing, malformed, expired, not signed by ' +
      "this stage's user pool, or issued to another app client); its `WWW-Authenticate` says why. " +
      '`unauthorized`: the token passed the gateway but is not an access token of this app (e.g. an ID token). Sign in again.',
    headers: {
      'Cache-Control': {
        description: "On the service's own answers only.",
        required: false,
        schema: { type: 'string', const: 'no-store' },
      },
      'WWW-Authenticate': {
        description: 'RFC 6750: `Bearer` and, from the gateway, `error="invalid_token"` with a description.',
        required: false,
        schema: { type: 'string', pattern: '^Bearer( |$)' },
      },
    },
    content: {
      'application/json': {
        schema: { oneOf: [error, gateway] },
        examples: {
          gateway: { summary: 'answered by API Gateway', value: GATEWAY_UNAUTHORIZED },
          unauthorized: {
            summary: 'unauthorized',
            value: {
              code: 'unauthorized',
              message: 'a valid access token is required: sign in and send `Authorization: Bearer <access token>`',
              status: 401,
            },
          },
        },
      },
    },
  };
}

const errorTable = Object.entries(ACCOUNT_ERROR_CODES)
  .map(([code, docs]) => `| ${docs.status} | \`${code}\` | ${docs.when} |`)
  .join('\n');

const DESCRIPTION = `The developer portal's API: a signed-in user lists, creates and revokes their own API keys for the pets and
messages APIs, and can delete their account. The portal page calls it; so can any client holding a user's access token.

**Base address.** The stack output \`AccountBaseUrl\`; locally (\`npm start\`) \`http://127.0.0.1:3000\`.

**Authentication.** \`Authorization: Bearer <access token>\`: the access token Amazon Cognito issues when the user signs in
to this stage's user pool with the portal's app client (\`InitiateAuth\`, \`USER_PASSWORD_AUTH\`). API Gateway's JWT authorizer
checks its signature, issuer, audience (the app client) and expiry before any function runs, and refuses a bad token with its own
\`401 {"message":"Unauthorized"}\`; the functions check the claims again and accept access tokens only.

**Errors.** The service's answers use the Error body \`{"code","message","status"}\` of the pets API, with one more code:

| HTTP | \`code\` | When |
|---|---|---|
${errorTable}

Any other method or path answers 404 \`not_found\` with a valid token (401 without). API Gateway's own answers (429, 500, and the
401 above) carry its body \`{"message": …}\` (schema \`GatewayError\`).`;

export function buildAccountOpenApiDocument(): OpenApiDocument {
  const schemas = new SchemaConverter();
  const errorContent = { 'application/json': { schema: schemas.convert(ErrorBody, 'output') } };
  const gatewayContent = { 'application/json': { schema: schemas.convert(GatewayErrorBody, 'output') } };
  const paths: Record<string, PathItem> = {};
  for (const route of ACCOUNT_ROUTES) {
    const path = route.path.slice(BASE_PATHS.account.length);
    const method = route.method.toLowerCase() as HttpMethodKey;
    const built = operationOf(route, ACCOUNT_OPERATIONS[route.operationId], schemas, undefined, SECURITY);
    const operation: Operation = { ...built, responses: { ...built.responses, 401: unauthorized(errorContent, gatewayContent) } };
    paths[path] = { ...paths[path], [method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store account API',
      version: API_VERSION,
      summary: 'Self-service API keys for the pets and messages APIs: the developer portal.',
      description: DESCRIPTION,
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: serversOf('account'),
    security: SECURITY,
    tags: [{ name: 'account', description: "The signed-in user's API keys and account." }],
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "An Amazon Cognito access token of this stage's user pool, issued to the portal's app client when the user signs in. " +
            'It expires after an hour; sign in again (or use the refresh token) for a new one.',
        },
      },
    },
  };
}
