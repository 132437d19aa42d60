/**
 * A request oracle read from an OpenAPI document: does it allow this request, and if not, why? openapi-backend judges
 * the structure (Prism compares the Bearer scheme case-sensitively and reads 3.1 schemas as draft-07; others need
 * Express or read 3.0 only). The Content-Type is compared here; STATED_RULES apply only where the document says them.
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

/** Rules JSON Schema cannot say: each applies where its words (`says`) appear in a description at its `place`. */
export const STATED_RULES = {
  /** A query parameter the operation does not list, or one sent twice, answers 400 (OpenAPI allows the one and leaves the other open). */
  strictQuery: { place: 'info', says: /unknown or repeated query parameters/ },
  /** The error table's `invalid_json` row: a JSON object repeating a member name, escaped or not (JSON leaves it to the parser). */
  uniqueMemberNames: { place: 'info', says: /a member name repeated in one object included/ },
  /** The `unsupported_media_type` row: a `charset` parameter other than UTF-8 (compared case-insensitively, as RFC 9110 does). */
  utf8Charset: { place: 'info', says: /any charset other than UTF-8 are refused/ },
  /** "JSON, at most 256 KiB": a larger body answers 413. */
  bodySize: { place: 'requestBody', says: /at most (\d+) KiB/ },
  /** `limit`, `petId`: `0` or an optional `-` and digits without a leading zero; elsewhere ajv's coercion reads any number. */
  canonicalInteger: { place: 'parameter', says: /in canonical decimal form/ },
  /** `cursor`: one a `rel="next"` link the API answered carries, with that link's filter (a well-formed edited one is not judged). */
  issuedCursor: { place: 'parameter', says: /taken from the `Link` header of the previous page/ },
} as const satisfies Record<string, { readonly place: 'info' | 'parameter' | 'requestBody'; readonly says: RegExp }>;

export type StatedRuleName = keyof typeof STATED_RULES;

/** Where `rule` is stated in `text`, a description at `place`: the words' match; nothing where it is not. */
const stated = (rule: StatedRuleName, place: string, text = ''): RegExpExecArray | null | undefined =>
  STATED_RULES[rule].place === place ? STATED_RULES[rule].says.exec(text) : undefined;

/** A compiled document: `check` judges one request. */
export interface RequestCheck {
  check(request: CheckedRequest, history?: RequestHistory): Promise<Verdict>;
  /** The stated rules this document says somewhere. */
  readonly statedRules: readonly StatedRuleName[];
}

/** Headers (names lower-cased) or the path's variables (percent-decoded). */
type Texts = Readonly<Record<string, string>>;

/** What openapi-backend refused, with the path's variables as it read them. */
interface Judged {
  readonly path: Texts;
  readonly reasons: readonly string[];
}

const judged = (context: Context, reasons: readonly string[] = []): Judged => ({ path: context.request.params as Texts, reasons });

export function requestCheck(document: OpenApiDocument): RequestCheck {
  const infoSays = (rule: StatedRuleName): boolean => Boolean(stated(rule, 'info', document.info.description));
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as unknown as Document,
    quick: true,
    ignoreTrailingSlashes: false,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- ajv's own class for JSON Schema 2020-12, used as any Ajv
    customizeAjv: (_ajv, options) => openApiAjv(options),
    handlers: {
      unauthorizedHandler: (context: Context) => judged(context, ['no `Authorization: Bearer <token>` header']),
      validationFail: (context: Context) =>
        judged(
          context,
          context.validation.errors?.map((error) => `${error.instancePath} ${error.message}`),
        ),
      notImplemented: (context: Context) => judged(context),
    },
  });
  // Every scheme is HTTP bearer. RFC 9110: the scheme is case-insensitive. Whether the token is a valid key only the API knows.
  for (const name of Object.keys(document.components.securitySchemes))
    api.registerSecurityHandler(name, (context: Context) => /^bearer +\S+$/i.test((context.request.headers as Texts).authorization ?? ''));
  const ready = api.init();

  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
  const descriptions = {
    info: [document.info.description],
    parameter: operations.flatMap(({ parameters = [] }) => parameters.map(({ description }) => description)),
    requestBody: operations.map(({ requestBody }) => requestBody?.description),
  };
  const statedRules = (Object.keys(STATED_RULES) as StatedRuleName[]).filter((rule) =>
    descriptions[STATED_RULES[rule].place].some((text) => stated(rule, STATED_RULES[rule].place, text)),
  );

  function cursorProblems(parameter: Parameter, value: string, query: URLSearchParams, history: RequestHistory): string[] {
    const issued = history.nextLinks.filter((link) => link.searchParams.get(parameter.name) === value);
    if (issued.length === 0) return ['is not a cursor the API issued in a `Link` header'];
    const filter = /used with another `(\w+)` filter/.exec(parameter.description ?? '')?.[1];
    const sameFilter = filter === undefined || issued.some((link) => link.searchParams.get(filter) === query.get(filter));
    return sameFilter ? [] : [`was issued for another \`${filter}\` filter`];
  }

  function parameterProblems({ parameters = [] }: Operation, query: URLSearchParams, path: Texts, history: RequestHistory): string[] {
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
      const says = (rule: StatedRuleName): boolean => text !== undefined && Boolean(stated(rule, 'parameter', parameter.description));
      const problems = says('canonicalInteger') && !INTEGER_TEXT.test(text ?? '') ? ['is not an integer in canonical decimal form'] : [];
      if (says('issuedCursor')) problems.push(...cursorProblems(parameter, text ?? '', query, history));
      found.push(...problems.map((problem) => `${parameter.in} parameter '${parameter.name}' ${problem}`));
    }
    return found;
  }

  /** The Content-Type against the body's media types (openapi-backend does not compare them), and the stated rules on bodies. */
  function bodyProblems({ requestBody }: Operation, headers: Texts, bytes: Uint8Array | undefined, text: string): string[] {
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
    const limitKiB = Number(stated('bodySize', 'requestBody', requestBody.description)?.[1] ?? Number.POSITIVE_INFINITY);
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
    const operation = api.matchOperation(sent) as Operation | undefined;
    if (!operation) return { allowed: false, operationId: undefined, reasons: ['no documented operation has this method and path'] };
    const listed = new Set(operation.parameters?.map(({ name }) => name));
    let structure: Judged;
    try {
      // Only the query parameters the operation lists, the last of repeated values: OpenAPI allows others and leaves open which counts.
      structure = (await api.handleRequest({
        ...sent,
        query: Object.fromEntries([...query].filter(([name]) => listed.has(name))),
      })) as Judged;
    } catch {
      // Its router throws on a path variable that is not percent-encoded UTF-8.
      return { allowed: false, operationId: operation.operationId, reasons: ['the path is not percent-encoded UTF-8'] };
    }
    const reasons = [
      ...structure.reasons,
      ...parameterProblems(operation, query, structure.path, history),
      ...bodyProblems(operation, headers, bytes, text),
    ];
    return reasons.length === 0
      ? { allowed: true, operationId: operation.operationId }
      : { allowed: false, operationId: operation.operationId, reasons };
  }

  return { check, statedRules };
}
