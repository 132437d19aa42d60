/**
 * A request oracle read from an OpenAPI document: does the document allow this request, and if not,
 * why? Everything it can, it takes from the document's structure: the operation (method and path
 * template), its path, query and header parameters and their schemas, the security scheme, whether a
 * body is required, its media types and its schema (ajv, JSON Schema 2020-12 with ajv's default `u`
 * flag on patterns, as Prism runs it). What JSON Schema cannot carry but the document says in words is
 * in one list, STATED_RULES below: each rule applies only where the document says it, word for word,
 * so a document that stops saying it stops being read that way (and the request corpus test then
 * shows the server and the document disagreeing).
 */
import { INTEGER_TEXT } from '#contract/schemas/common';
import { repeatedMemberName } from '#http/middleware/unique-member-names';
import { parseMediaType } from '#shared/media-type';
import { schemaValidation } from './schema-validation';
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from './types';

export interface CheckedRequest {
  readonly method: string;
  /** Relative to the base URL of the operation's document (`/pets/42` for `…/v1/pets/42`), percent-encoded as sent. */
  readonly path: string;
  /** The raw query string, without `?` (empty for none). */
  readonly query: string;
  /** Names in any case; a header sent twice is one value joined with a comma, as HTTP reads it. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent: text (sent as UTF-8) or bytes. Absent: no body. */
  readonly body?: string | Uint8Array;
}

/** What the client has received so far, for the rules that refer to the API's earlier answers. */
export interface RequestHistory {
  /** The `rel="next"` links of the listings answered so far. */
  readonly nextLinks: readonly URL[];
}

export type Verdict =
  | { readonly allowed: true; readonly operationId: string }
  | { readonly allowed: false; readonly operationId: string | undefined; readonly reasons: readonly string[] };

/** Where in the document a stated rule is looked for. */
type Place = 'info' | 'parameter' | 'requestBody';

interface StatedRule {
  readonly place: Place;
  /** Words of the document that state the rule; it applies where they appear. */
  readonly says: string | RegExp;
}

/**
 * The rules the documents state in words, because JSON Schema cannot say them. Each cites what the
 * document says; `place` is where: `info` (the document's description), `parameter` (that
 * parameter's description) or `requestBody` (the body's description).
 */
export const STATED_RULES = {
  /**
   * info: "Unknown body fields, duplicate member names in a body, unknown or repeated query parameters
   * and a client-chosen `id` answer 400." A query parameter the operation does not list, or one sent
   * twice, is refused (OpenAPI itself neither forbids extra query parameters nor says which of two
   * values counts).
   */
  strictQuery: { place: 'info', says: 'unknown or repeated query parameters' },
  /**
   * info, the error table's `invalid_json` row: "The body is empty, not valid JSON (a member name
   * repeated in one object included: I-JSON, RFC 7493), or not valid UTF-8." (The strictness sentence
   * above says it too.) An object of the JSON body that repeats a member name, escaped or not, is
   * refused; JSON itself leaves duplicates to the parser, and JSON.parse keeps the last.
   */
  uniqueMemberNames: { place: 'info', says: 'a member name repeated in one object included' },
  /**
   * info, the error table's `unsupported_media_type` row: "(parameters are fine; `+json` types such as
   * `application/problem+json` and any charset other than UTF-8 are refused)". The media type must be
   * one of the body's content types (that part is structure); its parameters are ignored, except that a
   * `charset` must be UTF-8 (case-insensitive, as RFC 9110 compares charsets).
   */
  utf8Charset: { place: 'info', says: 'any charset other than UTF-8 are refused' },
  /** requestBody: "JSON, at most 256 KiB, …": a larger body is refused (413). */
  bodySize: { place: 'requestBody', says: /at most (\d+) KiB/ },
  /**
   * parameter (`limit`, `petId`): "On the wire it is an integer in canonical decimal form, as a URI
   * template writes one: …". An integer parameter's text must be `0` or an optional `-` and digits
   * without a leading zero. Where a parameter does not say so, the oracle reads it as lenient tools do:
   * any text that is a finite number (ajv's type coercion, which Prism uses).
   */
  canonicalInteger: { place: 'parameter', says: 'in canonical decimal form' },
  /**
   * parameter (`cursor`): "an opaque token taken from the `Link` header of the previous page (never
   * built by hand). … A cursor that is not well-formed, or used with another `status` filter, answers
   * 400." A cursor is allowed only as some `rel="next"` link the API answered carries it, and only with
   * the filter that link carries (the parameter the description names in backquotes). The document's
   * one exception, a hand-edited cursor that is still well-formed (the API lists from it), is not
   * judged here: the cursor's encoding is opaque by design, and the corpus never sends one.
   */
  issuedCursor: { place: 'parameter', says: 'taken from the `Link` header of the previous page' },
} as const satisfies Record<string, StatedRule>;

export type StatedRuleName = keyof typeof STATED_RULES;

const COMPONENTS = '#/components/schemas/';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const RULE_NAMES = Object.keys(STATED_RULES) as StatedRuleName[];

/** Whether `text` (a description at `place`) states `rule`; for a pattern, what it captured. */
function stated(rule: StatedRuleName, place: Place, text: string | undefined): { readonly captured?: string } | undefined {
  const { place: rulePlace, says } = STATED_RULES[rule];
  if (rulePlace !== place || text === undefined) return undefined;
  if (typeof says === 'string') return text.includes(says) ? {} : undefined;
  const match = says.exec(text);
  return match ? { ...(match[1] === undefined ? {} : { captured: match[1] }) } : undefined;
}

/** A compiled document: `check` judges one request. */
export interface RequestCheck {
  check(request: CheckedRequest, history?: RequestHistory): Verdict;
  /** The stated rules this document says, each with where (e.g. `listPets parameter cursor`). */
  readonly statedRules: readonly { readonly rule: StatedRuleName; readonly where: string }[];
}

interface LocatedOperation {
  readonly method: string;
  readonly template: string;
  readonly operation: Operation;
}

/** The operation whose method and path template match, with the path's variables as sent; else why none does. */
function locate(
  operations: readonly LocatedOperation[],
  method: string,
  path: string,
): { operation: Operation; variables: Map<string, string> } | string {
  const segments = path.split('/');
  let pathMatched = false;
  for (const candidate of operations) {
    const templateSegments = candidate.template.split('/');
    if (templateSegments.length !== segments.length) continue;
    const variables = new Map<string, string>();
    const matches = templateSegments.every((segment, index) => {
      const sent = segments[index] ?? '';
      const variable = /^\{(.+)\}$/.exec(segment)?.[1];
      if (variable === undefined) return segment === sent;
      variables.set(variable, sent);
      return sent !== '';
    });
    if (!matches) continue;
    pathMatched = true;
    if (candidate.method === method) return { operation: candidate.operation, variables };
  }
  return pathMatched ? `${method} is not documented for ${path}` : `no documented path matches ${path}`;
}

export function requestCheck(document: OpenApiDocument): RequestCheck {
  const validation = schemaValidation(document);
  const schemaProblems = (schema: JsonSchema, value: unknown): string[] => validation(schema, value, 'value');
  const resolve = (schema: JsonSchema): JsonSchema =>
    typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENTS)
      ? (document.components.schemas[schema.$ref.slice(COMPONENTS.length)] ?? schema)
      : schema;
  const infoSays = (rule: StatedRuleName): boolean => stated(rule, 'info', document.info.description) !== undefined;

  const operations: LocatedOperation[] = Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );
  const statedRules = [
    ...RULE_NAMES.filter(infoSays).map((rule) => ({ rule, where: 'info' })),
    ...operations.flatMap(({ operation }) =>
      RULE_NAMES.flatMap((rule) => [
        ...(operation.parameters ?? [])
          .filter((parameter) => stated(rule, 'parameter', parameter.description))
          .map((parameter) => ({ rule, where: `${operation.operationId} parameter ${parameter.name}` })),
        ...(stated(rule, 'requestBody', operation.requestBody?.description)
          ? [{ rule, where: `${operation.operationId} requestBody` }]
          : []),
      ]),
    ),
  ];

  /** A parameter's text, read as its schema's type says: the value to validate, or why there is none. */
  function parameterValue(parameter: Parameter, text: string): { readonly value: unknown } | { readonly problem: string } {
    const type = resolve(parameter.schema).type;
    if (type !== 'integer' && type !== 'number') return { value: text };
    if (stated('canonicalInteger', 'parameter', parameter.description)) {
      return INTEGER_TEXT.test(text) ? { value: Number(text) } : { problem: 'is not an integer in canonical decimal form' };
    }
    return text.trim() !== '' && Number.isFinite(Number(text)) ? { value: Number(text) } : { problem: 'is not a number' };
  }

  function parameterProblems(parameter: Parameter, text: string): string[] {
    const read = parameterValue(parameter, text);
    return 'problem' in read ? [read.problem] : schemaProblems(parameter.schema, read.value);
  }

  function cursorProblems(parameter: Parameter, value: string, query: URLSearchParams, history: RequestHistory | undefined): string[] {
    const issued = (history?.nextLinks ?? []).filter((link) => link.searchParams.get(parameter.name) === value);
    if (issued.length === 0) return ['is not a cursor the API issued in a `Link` header'];
    const filter = /used with another `(\w+)` filter/.exec(parameter.description ?? '')?.[1];
    if (filter !== undefined && !issued.some((link) => link.searchParams.get(filter) === query.get(filter))) {
      return [`was issued for another \`${filter}\` filter`];
    }
    return [];
  }

  function queryProblems(operation: Operation, raw: string, history: RequestHistory | undefined): string[] {
    // As servers read a query string (application/x-www-form-urlencoded: `+` is a space).
    const query = new URLSearchParams(raw);
    const documented = new Map((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
    const found: string[] = [];
    for (const name of new Set(query.keys())) {
      const parameter = documented.get(name);
      const values = query.getAll(name);
      if (!parameter) {
        if (infoSays('strictQuery')) found.push(`query parameter '${name}' is not documented`);
        continue;
      }
      if (values.length > 1 && infoSays('strictQuery')) found.push(`query parameter '${name}' is repeated`);
      // Without that rule, the last of repeated values would count.
      const value = values.at(-1) ?? '';
      const problems = parameterProblems(parameter, value);
      if (problems.length === 0 && stated('issuedCursor', 'parameter', parameter.description))
        problems.push(...cursorProblems(parameter, value, query, history));
      found.push(...problems.map((problem) => `query parameter '${name}' ${problem}`));
    }
    for (const parameter of documented.values())
      if (parameter.required && !query.has(parameter.name)) found.push(`query parameter '${parameter.name}' is required`);
    return found;
  }

  function pathProblems(operation: Operation, variables: ReadonlyMap<string, string>): string[] {
    return (operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'path')
      .flatMap((parameter) => {
        let text: string;
        try {
          text = decodeURIComponent(variables.get(parameter.name) ?? '');
        } catch {
          return [`path parameter '${parameter.name}' is not percent-encoded UTF-8`];
        }
        return parameterProblems(parameter, text).map((problem) => `path parameter '${parameter.name}' ${problem}`);
      });
  }

  function headerProblems(operation: Operation, headers: ReadonlyMap<string, string>): string[] {
    const found: string[] = [];
    for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'header')) {
      const value = headers.get(parameter.name.toLowerCase());
      if (value === undefined) {
        if (parameter.required) found.push(`header '${parameter.name}' is required`);
      } else found.push(...schemaProblems(parameter.schema, value).map((problem) => `header '${parameter.name}' ${problem}`));
    }
    // Every alternative needs a bearer token: then one must be sent (RFC 9110: the scheme is case-insensitive).
    // Whether it is a valid key only the API knows.
    const needsBearer =
      operation.security.length > 0 &&
      operation.security.every((requirement) =>
        Object.keys(requirement).some((name) => document.components.securitySchemes[name]?.scheme === 'bearer'),
      );
    if (needsBearer && !/^bearer +\S+$/i.test(headers.get('authorization') ?? '')) found.push('no `Authorization: Bearer <token>` header');
    return found;
  }

  function bodyProblems(operation: Operation, headers: ReadonlyMap<string, string>, body: string | Uint8Array | undefined): string[] {
    const requestBody = operation.requestBody;
    // A body the document does not describe (a GET's) is never read: nothing to judge.
    if (!requestBody) return [];
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    if (bytes === undefined || bytes.length === 0) return requestBody.required ? ['a request body is required'] : [];
    const contentType = headers.get('content-type');
    // RFC 9110: without a Content-Type the recipient may assume application/octet-stream, which no operation takes.
    const mediaType = contentType === undefined ? undefined : parseMediaType(contentType);
    if (!mediaType) return [`Content-Type ${JSON.stringify(contentType ?? null)} is not a media type`];
    const content = Object.entries(requestBody.content).find(([type]) => type.toLowerCase() === mediaType.essence)?.[1];
    if (!content) return [`media type ${mediaType.essence} is not one of ${Object.keys(requestBody.content).join(', ')}`];
    const found: string[] = [];
    if (infoSays('utf8Charset'))
      for (const [name, value] of mediaType.parameters)
        if (name === 'charset' && value.toLowerCase() !== 'utf-8') found.push(`charset ${value} is not UTF-8`);
    const limitKiB = Number(stated('bodySize', 'requestBody', requestBody.description)?.captured ?? Number.POSITIVE_INFINITY);
    if (bytes.length > limitKiB * 1024) found.push(`the body is over ${limitKiB} KiB`);
    if (mediaType.essence !== 'application/json') return found;
    let text: string;
    let value: unknown;
    try {
      // RFC 8259: JSON between systems is UTF-8, without a byte order mark.
      text = utf8.decode(bytes);
      value = JSON.parse(text);
    } catch {
      return [...found, 'the body is not JSON text in UTF-8'];
    }
    const repeated = infoSays('uniqueMemberNames') ? repeatedMemberName(text) : undefined;
    if (repeated !== undefined) found.push(`the body repeats the member name ${JSON.stringify(repeated)}`);
    found.push(...schemaProblems(content.schema, value).map((problem) => `body: ${problem}`));
    return found;
  }

  function check(request: CheckedRequest, history?: RequestHistory): Verdict {
    const located = locate(operations, request.method.toUpperCase(), request.path);
    if (typeof located === 'string') return { allowed: false, operationId: undefined, reasons: [located] };
    const { operation, variables } = located;
    const headers = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const reasons = [
      ...pathProblems(operation, variables),
      ...queryProblems(operation, request.query, history),
      ...headerProblems(operation, headers),
      ...bodyProblems(operation, headers, request.body),
    ];
    return reasons.length === 0
      ? { allowed: true, operationId: operation.operationId }
      : { allowed: false, operationId: operation.operationId, reasons };
  }

  return { check, statedRules };
}
