/**
 * A request oracle read from an OpenAPI document: does the document allow this request, and if not,
 * why? Its structure is judged by openapi-backend, an OpenAPI router and validator that runs in
 * process: the operation (method and path template), the path, query and header parameters against
 * their schemas, the security requirement, whether a body is required and the body's schema. Of the
 * maintained validators it is the one these documents only need to configure: Prism's compares the
 * Bearer scheme case-sensitively, takes `application/problem+json` for `application/json`, accepts a
 * body without Content-Type and compiles 3.1 schemas as draft-07; express-openapi-validator needs an
 * Express app; openapi-request-validator and openapi-enforcer read OpenAPI 3.0 only. Configured here:
 * `quick` (its own check of the document knows only 3.0), ajv for JSON Schema 2020-12 (its own is
 * draft-07), only the query parameters the operation lists (it refuses others, which OpenAPI allows),
 * and what a bearer token looks like. It leaves one structural check out, the Content-Type against the
 * body's media types, done below. What JSON Schema cannot carry but the document says in words is in
 * STATED_RULES: each rule applies only where the document says it, word for word, so a document that
 * stops saying it stops being read that way (and the request corpus test then shows the server and the
 * document disagreeing).
 */
import { isUtf8 } from 'node:buffer';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import { INTEGER_TEXT } from '#contract/schemas/common';
import { repeatedMemberName } from '#http/middleware/unique-member-names';
import { parseMediaType } from '#shared/media-type';
import { openApiAjv } from './schema-validation';
import type { OpenApiDocument, Operation, Parameter } from './types';

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
   * without a leading zero. Where a parameter does not say so, the validator reads it as lenient tools do
   * (ajv's type coercion: any text that is a number).
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
  check(request: CheckedRequest, history?: RequestHistory): Promise<Verdict>;
  /** The stated rules this document says, each with where (e.g. `listPets parameter cursor`). */
  readonly statedRules: readonly { readonly rule: StatedRuleName; readonly where: string }[];
}

/** What openapi-backend found: the operation it located, with the path's variables (percent-decoded), and what it refused. */
interface Structure {
  readonly operation?: Operation;
  readonly path?: Readonly<Record<string, string>>;
  readonly reasons: readonly string[];
}

const located = (context: Context, reasons: readonly string[] = []): Structure => ({
  operation: context.operation as unknown as Operation,
  path: context.request.params as Record<string, string>,
  reasons,
});

export function requestCheck(document: OpenApiDocument): RequestCheck {
  const infoSays = (rule: StatedRuleName): boolean => stated(rule, 'info', document.info.description) !== undefined;
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as unknown as Document,
    quick: true,
    ignoreTrailingSlashes: false,
    customizeAjv: (_ajv, options) => openApiAjv(options),
    handlers: {
      notFound: (): Structure => ({ reasons: ['no documented path matches'] }),
      methodNotAllowed: (): Structure => ({ reasons: ['the method is not documented for this path'] }),
      unauthorizedHandler: (context: Context) => located(context, ['no `Authorization: Bearer <token>` header']),
      validationFail: (context: Context) =>
        located(
          context,
          (context.validation.errors ?? []).map(({ instancePath, message }) => `${instancePath} ${message}`),
        ),
      notImplemented: (context: Context) => located(context),
    },
  });
  // RFC 9110: the scheme is case-insensitive. Whether the token is a valid key only the API knows.
  for (const [name, { scheme }] of Object.entries(document.components.securitySchemes))
    if (scheme === 'bearer')
      api.registerSecurityHandler(name, (context: Context) => /^bearer +\S+$/i.test(String(context.request.headers.authorization)));
  const ready = api.init();

  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
  const statedRules = RULE_NAMES.flatMap((rule) => [
    ...(infoSays(rule) ? [{ rule, where: 'info' }] : []),
    ...operations.flatMap(({ operationId, parameters = [], requestBody }) => [
      ...parameters
        .filter((parameter) => stated(rule, 'parameter', parameter.description))
        .map((parameter) => ({ rule, where: `${operationId} parameter ${parameter.name}` })),
      ...(stated(rule, 'requestBody', requestBody?.description) ? [{ rule, where: `${operationId} requestBody` }] : []),
    ]),
  ]);

  function cursorProblems(parameter: Parameter, value: string, query: URLSearchParams, history: RequestHistory): string[] {
    const issued = history.nextLinks.filter((link) => link.searchParams.get(parameter.name) === value);
    if (issued.length === 0) return ['is not a cursor the API issued in a `Link` header'];
    const filter = /used with another `(\w+)` filter/.exec(parameter.description ?? '')?.[1];
    if (filter !== undefined && !issued.some((link) => link.searchParams.get(filter) === query.get(filter))) {
      return [`was issued for another \`${filter}\` filter`];
    }
    return [];
  }

  function parameterProblems(
    operation: Operation,
    query: URLSearchParams,
    path: Readonly<Record<string, string>>,
    history: RequestHistory,
  ): string[] {
    const parameters = operation.parameters ?? [];
    const found: string[] = [];
    if (infoSays('strictQuery'))
      for (const name of new Set(query.keys())) {
        if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === name))
          found.push(`query parameter '${name}' is not documented`);
        else if (query.getAll(name).length > 1) found.push(`query parameter '${name}' is repeated`);
      }
    for (const parameter of parameters) {
      const text =
        parameter.in === 'query' ? query.getAll(parameter.name).at(-1) : parameter.in === 'path' ? path[parameter.name] : undefined;
      if (text === undefined) continue;
      const problems =
        stated('canonicalInteger', 'parameter', parameter.description) && !INTEGER_TEXT.test(text)
          ? ['is not an integer in canonical decimal form']
          : [];
      if (stated('issuedCursor', 'parameter', parameter.description)) problems.push(...cursorProblems(parameter, text, query, history));
      found.push(...problems.map((problem) => `${parameter.in} parameter '${parameter.name}' ${problem}`));
    }
    return found;
  }

  /** The Content-Type against the body's media types (openapi-backend does not compare them), and the stated rules on bodies. */
  function bodyProblems(
    operation: Operation,
    headers: Readonly<Record<string, string>>,
    bytes: Uint8Array | undefined,
    text: string,
  ): string[] {
    const requestBody = operation.requestBody;
    // A body the document does not describe (a GET's) is never read, and whether one is required openapi-backend judged.
    if (!requestBody || !bytes?.length) return [];
    const contentType = headers['content-type'];
    // RFC 9110: without a Content-Type the recipient may assume application/octet-stream, which no operation takes.
    const mediaType = contentType === undefined ? undefined : parseMediaType(contentType);
    if (!mediaType) return [`Content-Type ${JSON.stringify(contentType ?? null)} is not a media type`];
    const types = Object.keys(requestBody.content);
    if (!types.some((type) => type.toLowerCase() === mediaType.essence))
      return [`media type ${mediaType.essence} is not one of ${types.join(', ')}`];
    const found: string[] = [];
    if (infoSays('utf8Charset'))
      for (const [name, value] of mediaType.parameters)
        if (name === 'charset' && value.toLowerCase() !== 'utf-8') found.push(`charset ${value} is not UTF-8`);
    const limitKiB = Number(stated('bodySize', 'requestBody', requestBody.description)?.captured ?? Number.POSITIVE_INFINITY);
    if (bytes.length > limitKiB * 1024) found.push(`the body is over ${limitKiB} KiB`);
    // RFC 8259: JSON between systems is UTF-8 (openapi-backend is handed it decoded).
    if (mediaType.essence === 'application/json' && !isUtf8(bytes)) found.push('the body is not UTF-8');
    const repeated = infoSays('uniqueMemberNames') ? repeatedMemberName(text) : undefined;
    if (repeated !== undefined) found.push(`the body repeats the member name ${JSON.stringify(repeated)}`);
    return found;
  }

  async function check(request: CheckedRequest, history: RequestHistory = { nextLinks: [] }): Promise<Verdict> {
    await ready;
    // As servers read a query string (application/x-www-form-urlencoded: `+` is a space).
    const query = new URLSearchParams(request.query);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const bytes = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body;
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const sent = { method: request.method, path: request.path, headers, ...(bytes?.length ? { body: text } : {}) };
    const matched = api.matchOperation(sent) as Operation | undefined;
    const listed = new Set(matched?.parameters?.map(({ name }) => name));
    let structure: Structure;
    try {
      // The last of repeated values, as OpenAPI leaves open which counts.
      structure = (await api.handleRequest({
        ...sent,
        query: Object.fromEntries([...query].filter(([name]) => listed.has(name))),
      })) as Structure;
    } catch {
      // Its router throws on a path variable that is not percent-encoded UTF-8.
      return { allowed: false, operationId: matched?.operationId, reasons: ['the path is not percent-encoded UTF-8'] };
    }
    const { operation, path = {} } = structure;
    if (!operation) return { allowed: false, operationId: undefined, reasons: structure.reasons };
    const reasons = [
      ...structure.reasons,
      ...parameterProblems(operation, query, path, history),
      ...bodyProblems(operation, headers, bytes, text),
    ];
    return reasons.length === 0
      ? { allowed: true, operationId: operation.operationId }
      : { allowed: false, operationId: operation.operationId, reasons };
  }

  return { check, statedRules };
}
