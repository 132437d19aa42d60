/**
 * The documents the service publishes, one per base address (client generators read only the top-level `servers`:
 * with both APIs in one document most sent `POST /messages` to the pets address): pets, messages, and the developer
 * portal's account API, whose callers send a Cognito access token instead of an API key.
 */
import { API_KEY_FORM } from '#auth/api-keys';
import { AUTH_CACHE_TTL_MS } from '#auth/settings';
import { ACCOUNT_ERROR_CODES, ERROR_CODES } from '#contract/schemas/error';
import { ACCESS_TOKEN_VALIDITY_MINUTES, PORTAL_PATH } from '#shared/accounts';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from '#contract/schemas/list-pets-query';
import { ACCOUNT_ROUTES, ROUTES, type ApiName, type RouteDefinition } from '#shared/routes';
import type { DocumentDefinition } from './document';
import type { JsonSchema, Response } from './types';

const errorTable = Object.entries(ERROR_CODES)
  .map(([code, docs]) => `| ${docs.status} | \`${code}\` | ${docs.when} |`)
  .join('\n');

/** What `OPTIONS` answers, in every document: API Gateway's CORS preflight route (lib/petstore-http-api.ts), no operation of ours. */
const PREFLIGHT_DESCRIPTION = `**\`OPTIONS\` (CORS preflights).** Every deployed stage configures CORS (for the developer portal's origin and the stage's
\`corsOrigins\`), so \`OPTIONS\` on any path but the host's root \`/\` answers 204 with no body, without a key or token and whatever
the path; a preflight from an allowed origin also gets the \`Access-Control-Allow-*\` headers. The local server does the same when
started with \`PETSTORE_CORS_ORIGINS\`, and otherwise treats \`OPTIONS\` like any unknown route, as every stage treats \`OPTIONS /\`.`;

/** What every document of the API-key APIs says about keys, errors and the gateway: one text for both. */
const COMMON_DESCRIPTION = `**Authentication.** Every call needs \`Authorization: Bearer <API_KEY>\` (the scheme is case-insensitive). Without a
valid key every route, including unknown ones, answers 401 — before the body is read or validated (only a body over API Gateway's 10 MB limit is refused first, with its own 413). Developers get their
keys from the developer portal (the stack output \`PortalUrl\`; locally \`http://127.0.0.1:3000${PORTAL_PATH}/\`): sign up, then
create and revoke keys there. An operator can also issue keys with \`npm run keys -- create\`. The same key works on the pets and
messages APIs.

**Errors.** Every error has the same JSON body, \`{"code","message","status"}\`, \`status\` repeating the HTTP status:

| HTTP | \`code\` | When |
|---|---|---|
${errorTable}

Any method or path not listed here answers 404 \`not_found\` (401 without a valid key), but for \`OPTIONS\` (below).

**Answers from API Gateway itself.** A few answers come from the gateway, not the service, with the gateway's own body
\`{"message": …}\` (schema \`GatewayError\`), no \`Content-Type\` and none of the service's headers: 429 \`Too Many Requests\`
when the stage is throttled, 413 \`Request Entity Too Large\` for a body over 10 MB (or an event over Lambda's 6 MB), 500
\`Internal Server Error\` when a function fails or times out. Each operation documents them next to the service's own answers
(under \`application/json\`, which OpenAPI needs to describe a body).

**Strictness.** Unknown body fields, duplicate member names in a body, unknown or repeated query parameters and a client-chosen \`id\` answer 400.
Answers are \`application/json\` with \`Cache-Control: no-store\`.

${PREFLIGHT_DESCRIPTION}`;

const PETS_DESCRIPTION = `An HTTP/JSON API to a store's animals: list, add, fetch.

**Base address.** Paths are relative to a base address ending with \`/v1\` (the interface version): the stack output
\`PetsBaseUrl\`; locally (\`npm start\`) \`http://127.0.0.1:3000/v1\`. The getting-started \`POST /messages\` call is another API with
its own base address and document (\`messages.json\` beside this one).

${COMMON_DESCRIPTION}

\`GET /store/orders\`, whose existence the interface mentions without defining it, is such an unknown route.

**Pagination.** \`GET /pets\` answers at most \`limit\` animals (${LIST_LIMIT_MIN}–${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}); when more follow, the
\`Link: <…>; rel="next"\` header gives the next page, with an opaque \`cursor\`.`;

const MESSAGES_DESCRIPTION = `The getting-started call of the pet store: submit a message, which is stored and answered as \`queued\`.

**Base address.** Paths are relative to the messages API's own base address, without \`/v1\`: the stack output
\`MessagesBaseUrl\`; locally (\`npm start\`) \`http://127.0.0.1:3000\`. The pets operations are another API with its own base
address and document (\`pets.json\` beside this one).

${COMMON_DESCRIPTION}`;

const API_KEY_SCHEME: DocumentDefinition['securityScheme'] = {
  name: 'bearerAuth',
  bearerFormat: 'API key',
  description:
    `An API key (${API_KEY_FORM}, the last 8 a checksum), created in the developer portal (or issued by an operator with ` +
    `\`npm run keys -- create\`) and sent as \`Authorization: Bearer <API_KEY>\`. A revoked key is refused within ` +
    `${AUTH_CACHE_TTL_MS / 1000} seconds.`,
};

const routesOf = (api: ApiName): readonly RouteDefinition[] => ROUTES.filter((route) => route.api === api);

export const PETS_DOCUMENT: DocumentDefinition = {
  file: 'docs/openapi/pets.json',
  api: 'pets',
  routes: routesOf('pets'),
  info: {
    title: 'Pet Store API',
    summary: "A store's animals over HTTP/JSON.",
    description: PETS_DESCRIPTION,
  },
  tags: [{ name: 'pets', description: 'The animals of the store.' }],
  securityScheme: API_KEY_SCHEME,
};

export const MESSAGES_DOCUMENT: DocumentDefinition = {
  file: 'docs/openapi/messages.json',
  api: 'messages',
  routes: routesOf('messages'),
  info: {
    title: 'Pet Store messages API',
    summary: "The getting-started message call, on the messages API's own base address.",
    description: MESSAGES_DESCRIPTION,
  },
  tags: [{ name: 'messages', description: 'The getting-started example.' }],
  securityScheme: API_KEY_SCHEME,
};

/** What API Gateway's JWT authorizer answers by itself, before any function runs. */
const GATEWAY_UNAUTHORIZED = { message: 'Unauthorized' } as const;

/** 401 from API Gateway's JWT authorizer (its own body, unchangeable in HTTP APIs) or from the function (an ID token). */
function unauthorized(error: JsonSchema, gateway: JsonSchema): Response {
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

const accountErrorTable = Object.entries(ACCOUNT_ERROR_CODES)
  .map(([code, docs]) => `| ${docs.status} | \`${code}\` | ${docs.when} |`)
  .join('\n');

const ACCOUNT_DESCRIPTION = `The developer portal's API: a signed-in user lists, creates and revokes their own API keys for the pets and
messages APIs, and can delete their account. The portal page calls it; so can any client holding a user's access token.

**Base address.** The stack output \`AccountBaseUrl\`; locally (\`npm start\`) \`http://127.0.0.1:3000\`.

**Authentication.** \`Authorization: Bearer <access token>\`: the access token Amazon Cognito issues when the user signs in
to this stage's user pool with the portal's app client (\`InitiateAuth\`, \`USER_PASSWORD_AUTH\`). API Gateway's JWT authorizer
checks its signature, issuer, audience (the app client) and expiry before any function runs, and refuses a bad token with its own
\`401 {"message":"Unauthorized"}\`; the functions check the claims again and accept access tokens only.

**Errors.** The service's answers use the Error body \`{"code","message","status"}\` of the pets API and its codes, plus these:

| HTTP | \`code\` | When |
|---|---|---|
${accountErrorTable}

Any other method or path answers 404 \`not_found\` with a valid token (401 without), but for \`OPTIONS\` (below). API Gateway's own
answers (429, 500, and the 401 above) carry its body \`{"message": …}\` (schema \`GatewayError\`).

${PREFLIGHT_DESCRIPTION}`;

export const ACCOUNT_DOCUMENT: DocumentDefinition = {
  file: 'docs/openapi/account.json',
  api: 'account',
  routes: ACCOUNT_ROUTES,
  info: {
    title: 'Pet Store account API',
    summary: 'Self-service API keys for the pets and messages APIs: the developer portal.',
    description: ACCOUNT_DESCRIPTION,
  },
  tags: [{ name: 'account', description: "The signed-in user's API keys and account." }],
  securityScheme: {
    name: 'accessToken',
    bearerFormat: 'JWT',
    description:
      "An Amazon Cognito access token of this stage's user pool, issued to the portal's app client when the user signs in. " +
      `It expires after ${ACCESS_TOKEN_VALIDITY_MINUTES} minutes; sign in again (or use the refresh token) for a new one.`,
  },
  responses: ({ error, gateway }) => ({ 401: unauthorized(error, gateway) }),
};

/** Every document, in the order `npm run openapi` writes them. */
export const DOCUMENTS: readonly DocumentDefinition[] = [PETS_DOCUMENT, MESSAGES_DOCUMENT, ACCOUNT_DOCUMENT];
