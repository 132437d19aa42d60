/**
 * The OpenAPI 3.1 document of the service, built from the route table (lib/routes.ts), the zod
 * schemas and their `apiDocs` metadata (lambda/shared/schemas/) and the operation table
 * (./operations.ts). Plain code, no aws-cdk-lib: `npm run openapi` writes it to docs/openapi.json and
 * the local server serves it.
 */
import { API_KEY_FORM } from '../lambda/shared/api-keys';
import { AUTH_CACHE_TTL_MS } from '../lambda/shared/auth-settings';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS } from '../lambda/shared/operations';
import { MAX_BODY_BYTES } from '../lambda/shared/middleware/limit-body-size';
import { ERROR_CODES, ErrorBody, GatewayErrorBody } from '../lambda/shared/schemas/error';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from '../lambda/shared/schemas/list-pets-query';
import { PETS_BASE_PATH, ROUTES, type ApiName, type RouteDefinition } from '../lib/routes';
import { stackNameOf } from '../lib/stages';
import { SchemaConverter } from './json-schema';
import { OPERATIONS, errorCodesOf, takesBody, type OperationDocs } from './operations';
import { errorResponses, headers } from './responses';
import type { HttpMethodKey, OpenApiDocument, Operation, Parameter, PathItem, Server } from './types';

export const API_VERSION = '1.0.0';
const SECURITY_SCHEME = 'bearerAuth';
const SECURITY = [{ [SECURITY_SCHEME]: [] }];
export type Security = Operation['security'];

/** Each API's routes carry its base path; the document's paths are relative to its servers. */
export const BASE_PATHS: Record<ApiName, string> = { pets: PETS_BASE_PATH, messages: '', account: '' };
const STACK_OUTPUTS: Record<ApiName, string> = { pets: 'PetsBaseUrl', messages: 'MessagesBaseUrl', account: 'AccountBaseUrl' };

/**
 * Deployed addresses are only known after `cdk deploy` (API Gateway picks the API id), so they are
 * templates: fill in the stack output the description names.
 */
/**
 * Server variables are one namespace in most tools (Postman, Portman, Prism): each API's variables
 * carry its name, so the messages servers never borrow the pets API's id.
 */
/** The account API has no custom domain: its servers are the execute-api and local addresses only. */
const SERVER_VARIABLES: Record<ApiName, { apiId: string; region: string; domain?: string; port: string }> = {
  pets: { apiId: 'apiId', region: 'region', domain: 'petsDomain', port: 'port' },
  messages: { apiId: 'messagesApiId', region: 'messagesRegion', domain: 'messagesDomain', port: 'messagesPort' },
  account: { apiId: 'accountApiId', region: 'accountRegion', port: 'accountPort' },
};
/** Examples only: a stage's own names come from `-c petsDomain` and `-c messagesDomain` (docs/deploy.md). */
const EXAMPLE_DOMAINS: Partial<Record<ApiName, string>> = { pets: 'api.example.com', messages: 'messages.example.com' };

export function serversOf(api: ApiName): Server[] {
  const basePath = BASE_PATHS[api];
  const names = SERVER_VARIABLES[api];
  const deployed = (stage: 'prod' | 'staging', title: string): Server => ({
    url: `https://{${names.apiId}}.execute-api.{${names.region}}.amazonaws.com${basePath}`,
    description: `${title}: the \`${STACK_OUTPUTS[api]}\` output of the ${stackNameOf(stage)} stack`,
    variables: {
      [names.apiId]: { default: `${stage}-${api}-api-id`, description: `API Gateway id of the ${api} API (in \`${STACK_OUTPUTS[api]}\`)` },
      [names.region]: { default: 'us-east-1', description: 'AWS region the stack is deployed to' },
    },
  });
  const { domain } = names;
  const exampleDomain = EXAMPLE_DOMAINS[api];
  return [
    deployed('prod', 'Production'),
    deployed('staging', 'Staging'),
    ...(domain && exampleDomain
      ? [
          {
            url: `https://{${domain}}${basePath}`,
            description: `Custom domain: a stage deployed with \`-c ${domain}\`, or behind its front door; the \`${STACK_OUTPUTS[api]}\` output`,
            variables: {
              [domain]: {
                default: exampleDomain,
                description: `The ${api} API's custom domain, or its front door's *.cloudfront.net name (in \`${STACK_OUTPUTS[api]}\`)`,
              },
            },
          },
        ]
      : []),
    {
      url: `http://127.0.0.1:{${names.port}}${basePath}`,
      description: 'Local: `npm start`',
      variables: { [names.port]: { default: '3000', description: 'The `PORT` the local server listens on' } },
    },
  ];
}

/** Mirrors the check in lambda/shared/middleware/idempotency-key.ts (answers 400 otherwise). */
const IDEMPOTENCY_KEY: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    `Makes a retry safe: within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours, a request from the same account with the same key ` +
    'and body gets the first answer (with `Idempotent-Replayed: true`) and stores nothing new — also while the first request is ' +
    'still running, or after it failed part-way; the same key with another body answers 422. Keys are per account and per operation. ' +
    'Generate a new unique value (e.g. a random UUID) for every new request and reuse it only to retry that request: ' +
    'no example is given here on purpose, since a tool that sent an example value would get an old answer replayed.',
  required: false,
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source, minLength: 1, maxLength: 255 },
};

export function operationOf(
  route: RouteDefinition,
  docs: OperationDocs,
  schemas: SchemaConverter,
  servers: Server[] | undefined,
  security: Security = SECURITY,
): Operation {
  const { input, success } = docs;
  const body = takesBody(docs) ? input.body : undefined;
  const parameters: Parameter[] = [
    ...schemas.parameters(input.path, 'path'),
    ...schemas.parameters(input.query, 'query'),
    ...(docs.idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  const operationHeaders = docs.headers ?? {};
  return {
    operationId: route.operationId,
    summary: docs.summary,
    description: docs.description,
    tags: [docs.tag],
    ...(docs.deprecated ? { deprecated: true } : {}),
    ...(servers ? { servers } : {}),
    security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            description: `JSON, at most ${MAX_BODY_BYTES / 1024} KiB, with \`Content-Type: application/json\`.`,
            required: true,
            content: {
              'application/json': {
                schema: schemas.convert(body, 'input'),
                ...(docs.requestExamples ? { examples: docs.requestExamples } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(success.status)]: {
        description: success.description,
        headers: headers({ 'Cache-Control': true, ...success.headers, ...operationHeaders }),
        ...(success.body
          ? {
              content: {
                'application/json': {
                  schema: schemas.convert(success.body, 'output'),
                  ...(success.examples ? { examples: success.examples } : {}),
                },
              },
            }
          : {}),
      },
      ...errorResponses(errorCodesOf(docs), {
        errorSchema: schemas.convert(ErrorBody, 'output'),
        gatewayErrorSchema: schemas.convert(GatewayErrorBody, 'output'),
        takesBody: body !== undefined,
        operationHeaders,
        ...(docs.exampleMessages ? { exampleMessages: docs.exampleMessages } : {}),
      }),
    },
  };
}

const errorTable = Object.entries(ERROR_CODES)
  .map(([code, docs]) => `| ${docs.status} | \`${code}\` | ${docs.when} |`)
  .join('\n');

const DESCRIPTION = `An HTTP/JSON API to a store's animals — list, add, fetch — plus the getting-started \`POST /messages\` call.

**Base addresses.** The pets operations are relative to a base address ending with \`/v1\` (the interface version).
\`POST /messages\` has its own base address, without \`/v1\`. Deployed addresses come from the stack outputs
\`PetsBaseUrl\` and \`MessagesBaseUrl\`; locally (\`npm start\`) they are \`http://127.0.0.1:3000/v1\` and \`http://127.0.0.1:3000\`.

**Authentication.** Every call needs \`Authorization: Bearer <API_KEY>\` (the scheme is case-insensitive). Without a
valid key every route, including unknown ones, answers 401 — before the body is read or validated.

**Errors.** Every error has the same JSON body, \`{"code","message","status"}\`, \`status\` repeating the HTTP status:

| HTTP | \`code\` | When |
|---|---|---|
${errorTable}

Any method or path not listed here answers 404 \`not_found\` (401 without a valid key); that includes \`GET /store/orders\`,
whose existence the interface mentions without defining it.

**Answers from API Gateway itself.** A few answers come from the gateway, not the service, with the gateway's own body
\`{"message": …}\` (schema \`GatewayError\`), no \`Content-Type\` and none of the service's headers: 429 \`Too Many Requests\`
when the stage is throttled, 413 \`Request Entity Too Large\` for a body over 10 MB (or an event over Lambda's 6 MB), 500
\`Internal Server Error\` when a function fails or times out. Each operation documents them next to the service's own answers
(under \`application/json\`, which OpenAPI needs to describe a body).

**Pagination.** \`GET /pets\` answers at most \`limit\` animals (${LIST_LIMIT_MIN}–${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}); when more follow, the
\`Link: <…>; rel="next"\` header gives the next page, with an opaque \`cursor\`.

**Strictness.** Unknown body fields, unknown or repeated query parameters and a client-chosen \`id\` answer 400.
Answers are \`application/json\` with \`Cache-Control: no-store\`.`;

export function buildOpenApiDocument(): OpenApiDocument {
  const schemas = new SchemaConverter();
  const paths: Record<string, PathItem> = {};
  for (const route of ROUTES) {
    const basePath = BASE_PATHS[route.api];
    if (!route.path.startsWith(`${basePath}/`)) throw new Error(`route ${route.path} is not under its API's base path ${basePath}`);
    const path = route.path.slice(basePath.length);
    const method = route.method.toLowerCase() as HttpMethodKey;
    const servers = route.api === 'pets' ? undefined : serversOf(route.api);
    paths[path] = { ...paths[path], [method]: operationOf(route, OPERATIONS[route.operationId], schemas, servers) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store API',
      version: API_VERSION,
      summary: "A store's animals over HTTP/JSON, plus the getting-started message call.",
      description: DESCRIPTION,
      // package.json says UNLICENSED: not an SPDX licence, so a LicenseRef (SPDX's form for custom terms).
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: serversOf('pets'),
    security: SECURITY,
    tags: [
      { name: 'pets', description: 'The animals of the store. Base address ending with `/v1`.' },
      { name: 'messages', description: 'The getting-started example, on its own base address.' },
    ],
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description:
            `An API key (${API_KEY_FORM}, the last 8 a checksum), issued with \`npm run keys -- create\` and sent as ` +
            `\`Authorization: Bearer <API_KEY>\`. A revoked key is refused within ${AUTH_CACHE_TTL_MS / 1000} seconds.`,
        },
      },
    },
  };
}
