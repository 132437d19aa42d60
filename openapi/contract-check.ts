/**
 * The contract check of the tests and `npm run smoke`: an HTTP answer held to its API's committed document
 * (docs/openapi/): operation, status, headers, and the body's media type and schema.
 */
import type { Header, JsonSchema, OpenApiDocument, Operation, Response } from './types';
// Imported, not read from the working directory: the stage check's bundle carries them into Lambda (lib/petstore-stage-check.ts).
import accountDocument from '../docs/openapi/account.json';
import messagesDocument from '../docs/openapi/messages.json';
import petsDocument from '../docs/openapi/pets.json';
import { schemaValidation, type SchemaProblems } from './schema-validation';
import { ACCOUNT_BASE_PATH } from '#shared/routes';

export interface ContractRequest {
  readonly method: string;
  readonly url: string;
}

export interface ContractAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** An answer read whole, `json` its body parsed (`undefined` when not JSON). */
export interface ReadAnswer extends ContractAnswer {
  readonly json: unknown;
}

export async function readAnswer(response: globalThis.Response): Promise<ReadAnswer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Set by Node's HTTP stack and API Gateway on every answer, not by the API; Content-Type is checked apart. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'apigw-requestid',
  // Added by API Gateway to answers for a configured browser origin (shared/cors.ts, local/gateway/cors.ts).
  'access-control-allow-origin',
  'access-control-expose-headers',
  'vary',
]);

export const petsOpenApiDocument = petsDocument as unknown as OpenApiDocument;
export const messagesOpenApiDocument = messagesDocument as unknown as OpenApiDocument;
export const accountOpenApiDocument = accountDocument as unknown as OpenApiDocument;

/** Each document's schemas on their own: each names its error body `Error`. */
const VALIDATIONS = new Map<OpenApiDocument, SchemaProblems>(
  [petsOpenApiDocument, messagesOpenApiDocument, accountOpenApiDocument].map((document) => [document, schemaValidation(document)]),
);

/** Validates a value against a schema of a document (the pets one by default); returns the problems (none when it matches). */
export function schemaProblems(schema: JsonSchema, value: unknown, document: OpenApiDocument = petsOpenApiDocument): string[] {
  const problems = VALIDATIONS.get(document);
  if (!problems) throw new Error('not one of the committed documents');
  return problems(schema, value);
}

interface LocatedOperation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly operation: Operation;
  readonly document: OpenApiDocument;
}

/** A URL template as a pattern where each variable is one path segment. */
function templatePattern(template: string): string {
  return template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
}

const DOCUMENTED_OPERATIONS: LocatedOperation[] = [...VALIDATIONS.keys()].flatMap((document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      document.servers.map((server) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${templatePattern(server.url)}${templatePattern(path)}$`),
        operation,
        document,
      })),
    ),
  ),
);

function locate(method: string, url: string): LocatedOperation | undefined {
  const { origin, pathname } = new URL(url);
  return DOCUMENTED_OPERATIONS.find(
    (candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(`${origin}${pathname}`),
  );
}

/** Locally the account API shares the origin of the others: its paths are the ones under /account. */
const isAccountUrl = (url: string): boolean => {
  const { pathname } = new URL(url);
  return pathname === ACCOUNT_BASE_PATH || pathname.startsWith(`${ACCOUNT_BASE_PATH}/`);
};

/** Outside the documented operations: 404 `not_found`, or 401 without a valid key (said only in the description). */
function unmatchedRouteResponse(status: number, url: string): Response | undefined {
  if (status !== 401 && status !== 404) return undefined;
  // The account API's `$default` route is behind the JWT authorizer: its 401 is the one every account operation documents.
  if (isAccountUrl(url)) {
    if (status === 401) return Object.values(Object.values(accountOpenApiDocument.paths)[0] ?? {})[0]?.responses['401'];
    return { ...(unmatchedRouteResponse(status, 'http://x/') as Response), description: 'any other account API route' };
  }
  const cacheControl: Header = { description: '', required: true, schema: { type: 'string', const: 'no-store' } };
  const wwwAuthenticate: Header = { description: '', required: true, schema: { type: 'string', const: 'Bearer realm="petstore"' } };
  return {
    description: 'any other route',
    headers: { 'Cache-Control': cacheControl, ...(status === 401 ? { 'WWW-Authenticate': wwwAuthenticate } : {}) },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** Header values are text; a header documented as an integer is compared as one. */
function headerValue(schema: JsonSchema, text: string): unknown {
  return schema.type === 'integer' && /^-?[0-9]+$/.test(text) ? Number(text) : text;
}

function headerProblems(documented: Response['headers'], actual: Headers, document: OpenApiDocument): string[] {
  const problems: string[] = [];
  const known = new Map(Object.entries(documented ?? {}).map(([name, header]) => [name.toLowerCase(), { name, header }]));
  for (const { name, header } of known.values()) {
    const value = actual.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    problems.push(
      ...schemaProblems(header.schema, headerValue(header.schema, value), document).map(
        (problem) => `header ${name}: ${problem.replace('(root) ', '')}`,
      ),
    );
  }
  for (const [name] of actual) {
    if (!known.has(name) && !TRANSPORT_HEADERS.has(name)) problems.push(`header ${name} is not documented for this answer`);
  }
  return problems;
}

const GATEWAY_ERROR: JsonSchema = { $ref: '#/components/schemas/GatewayError' };

/** API Gateway's own answers (`GatewayError`) have no Content-Type: accepted where that body is under application/json. */
function gatewayErrorDocumented(documented: NonNullable<Response['content']>): boolean {
  const schema = documented['application/json']?.schema;
  const branches = schema?.oneOf ?? [schema];
  return branches.some((branch) => branch?.$ref === GATEWAY_ERROR.$ref);
}

function bodyProblems(documented: Response['content'], answer: ContractAnswer, document: OpenApiDocument): string[] {
  const mediaType = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!documented) return answer.text === '' ? [] : ['a body was sent where none is documented'];
  const media =
    mediaType === undefined ? (gatewayErrorDocumented(documented) ? { schema: GATEWAY_ERROR } : undefined) : documented[mediaType];
  if (!media) return [`Content-Type ${mediaType ?? '(none)'} is not documented (documented: ${Object.keys(documented).join(', ')})`];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`the body is not JSON: ${answer.text.slice(0, 80)}`];
  }
  return schemaProblems(media.schema, body, document).map((problem) => `body ${problem}`);
}

/** Everything in the answer the document does not allow; empty when it honours the contract. */
export function contractViolations(request: ContractRequest, answer: ContractAnswer): { operationId: string; problems: string[] } {
  const located = locate(request.method, request.url);
  const operation = located?.operation;
  const document = located?.document ?? (isAccountUrl(request.url) ? accountOpenApiDocument : petsOpenApiDocument);
  const operationId = operation?.operationId ?? '(any other route)';
  const documented = operation ? operation.responses[String(answer.status)] : unmatchedRouteResponse(answer.status, request.url);
  if (!documented) {
    const statuses = operation ? Object.keys(operation.responses).join(', ') : '401, 404';
    return { operationId, problems: [`status ${answer.status} is not documented (documented: ${statuses})`] };
  }
  return {
    operationId,
    problems: [...headerProblems(documented.headers, answer.headers, document), ...bodyProblems(documented.content, answer, document)],
  };
}
