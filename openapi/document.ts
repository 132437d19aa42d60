/**
 * The one builder of the OpenAPI 3.1 documents (./documents.ts says which): from the route table (shared/routes.ts),
 * the zod schemas with their `apiDocs` metadata and the operation docs (./operation-docs.ts).
 */
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_WINDOW_SECONDS } from '#contract/operation-spec';
import { MAX_BODY_BYTES } from '#http/middleware/limit-body-size';
import { ErrorBody, GatewayErrorBody } from '#contract/schemas/error';
import { PETS_BASE_PATH, type ApiName, type RouteDefinition } from '#shared/routes';
import { stackNameOf } from '#shared/stages';
import { SchemaConverter } from './json-schema';
import { OPERATION_DOCS, takesBody, type OperationDocs } from './operation-docs';
import { headers } from './headers';
import { errorResponses, type ErrorSchemas } from './responses';
import type { HttpMethodKey, OpenApiDocument, Operation, Parameter, PathItem, Response, Server } from './types';

const API_VERSION = '1.0.0';

/** Each API's routes carry its base path; the document's paths are relative to its servers. */
const BASE_PATHS: Record<ApiName, string> = { pets: PETS_BASE_PATH, messages: '', account: '' };
const STACK_OUTPUTS: Record<ApiName, string> = { pets: 'PetsBaseUrl', messages: 'MessagesBaseUrl', account: 'AccountBaseUrl' };

/** Server variables are one namespace in most tools (Postman, Prism): each API's carry its name. */
const SERVER_VARIABLES: Record<ApiName, { apiId: string; region: string; domain?: string; port: string }> = {
  pets: { apiId: 'apiId', region: 'region', domain: 'petsDomain', port: 'port' },
  messages: { apiId: 'messagesApiId', region: 'messagesRegion', domain: 'messagesDomain', port: 'messagesPort' },
  account: { apiId: 'accountApiId', region: 'accountRegion', port: 'accountPort' },
};
/** Examples only: a stage's own names are its `petsDomain` and `messagesDomain` options (docs/deploy-reference.md). */
const EXAMPLE_DOMAINS: Partial<Record<ApiName, string>> = { pets: 'api.example.com', messages: 'messages.example.com' };

/** Deployed addresses are known only after `cdk deploy` (API Gateway picks the id): templates naming the stack output. */
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

/** Mirrors the check in lambda/http/idempotency-key.ts (answers 400 otherwise). */
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

function operationOf(
  route: RouteDefinition,
  docs: OperationDocs,
  schemas: SchemaConverter,
  errorSchemas: ErrorSchemas,
  security: Operation['security'],
): Operation {
  const {
    spec: { input },
    success,
  } = docs;
  const body = takesBody(docs) ? input.body : undefined;
  const parameters: Parameter[] = [
    ...schemas.parameters(input.path, 'path'),
    ...schemas.parameters(input.query, 'query'),
    ...(docs.spec.idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  return {
    operationId: route.operationId,
    summary: docs.summary,
    description: docs.description,
    tags: [docs.tag],
    ...(docs.deprecated ? { deprecated: true } : {}),
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
        headers: headers({ 'Cache-Control': true, ...success.headers, ...docs.headers }),
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
      ...errorResponses(docs, errorSchemas),
    },
  };
}

/** What tells one document from another: `file` relative to the root, `api` whose base address its servers are. */
export interface DocumentDefinition {
  readonly file: string;
  readonly api: ApiName;
  readonly routes: readonly RouteDefinition[];
  readonly info: Pick<OpenApiDocument['info'], 'title' | 'summary' | 'description'>;
  readonly tags: OpenApiDocument['tags'];
  readonly securityScheme: { readonly name: string; readonly bearerFormat: string; readonly description: string };
  /** Answers that replace the generated ones on every operation, by status. */
  readonly responses?: (schemas: ErrorSchemas) => Readonly<Record<string, Response>>;
}

export function buildDocument(definition: DocumentDefinition): OpenApiDocument {
  const schemas = new SchemaConverter();
  const security = [{ [definition.securityScheme.name]: [] }];
  const errorSchemas = { error: schemas.convert(ErrorBody, 'output'), gateway: schemas.convert(GatewayErrorBody, 'output') };
  const replaced = definition.responses?.(errorSchemas);
  const paths: Record<string, PathItem> = {};
  for (const route of definition.routes) {
    // Generators read only the document's servers: an operation of another API would be sent to the wrong address.
    if (route.api !== definition.api)
      throw new Error(`${route.operationId} is on the ${route.api} API, not in the ${definition.api} document`);
    const basePath = BASE_PATHS[route.api];
    if (!route.path.startsWith(`${basePath}/`)) throw new Error(`route ${route.path} is not under its API's base path ${basePath}`);
    const path = route.path.slice(basePath.length);
    const method = route.method.toLowerCase() as HttpMethodKey;
    const operation = operationOf(route, OPERATION_DOCS[route.operationId], schemas, errorSchemas, security);
    paths[path] = { ...paths[path], [method]: replaced ? { ...operation, responses: { ...operation.responses, ...replaced } } : operation };
  }
  const { bearerFormat, description } = definition.securityScheme;
  return {
    openapi: '3.1.0',
    info: {
      title: definition.info.title,
      version: API_VERSION,
      summary: definition.info.summary,
      description: definition.info.description,
      // package.json says UNLICENSED: not an SPDX licence, so a LicenseRef (SPDX's form for custom terms).
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: serversOf(definition.api),
    security,
    tags: definition.tags,
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: { [definition.securityScheme.name]: { type: 'http', scheme: 'bearer', bearerFormat, description } },
    },
  };
}
