/**
 * The request corpus of request-corpus.test.ts: fast-check arbitraries of valid requests to the four
 * operations of the spec and of their mutations, each labelled with what it changed. The generators
 * aim at the edges (text rules, integer text forms, media types, JSON structure, cursors) and leave
 * the verdict to the oracle: a mutation may well give a valid request (an odd but valid content type,
 * a name of exactly 200 emoji), and the server must then accept it all the same.
 */
import fc from 'fast-check';
import { PET_STATUSES } from '#contract/schemas/pet-status';
import type { PublicOperationId } from '#shared/routes';
import { WHITESPACE } from '../support/text-edges';

export interface CorpusRequest {
  /** The operation it is meant for: its document's base URL is what `path` is relative to. */
  readonly operationId: PublicOperationId;
  /** `valid`, or what was changed. */
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  /** Raw, without `?`. */
  readonly query: string;
  /** Every header but `Authorization`, which `authorization` describes. */
  readonly headers: Readonly<Record<string, string>>;
  /** `key`: `Bearer <a valid key>`; a scheme: that scheme and the valid key; `none`: no header. */
  readonly authorization: 'key' | 'none' | { readonly scheme: string };
  readonly body?: string | Uint8Array;
}

/** A `rel="next"` link the API answered: the cursor and the `status` filter it carries. */
export interface IssuedLink {
  readonly cursor: string;
  readonly status: string | null;
}

type Labelled<T> = readonly [kind: string, value: T];
const labelled = <T>(kind: string, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<Labelled<T>> =>
  arbitrary.map((value) => [kind, value] as const);
const char = (code: number): string => String.fromCharCode(code);
const position = fc.double({ min: 0, max: 1, noNaN: true });
const insertAt = (text: string, piece: string, at: number): string => {
  const index = Math.round(at * text.length);
  return `${text.slice(0, index)}${piece}${text.slice(index)}`;
};

// ---- text: names and messages -------------------------------------------------------------------

/** Invisible, but not whitespace: a name of them is not blank. */
const NOT_WHITESPACE = ['\u200b', '\u180e', '\u2060'];
const controlCharacter = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map(char);
const loneSurrogate = fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }).map(char), fc.constantFrom('\ud83d', '\udc36'));
const visibleText = fc.oneof(
  fc.constantFrom('Rex', 'Tom', 'Mr. Whiskers', '🐶', 'Ünïcødé', 'Zoë 🐈‍⬛', '名前', 'a\u0301', 'x'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
);

/**
 * Any code point, a lone surrogate included, as fast-check's `binary` unit draws; that unit maps all 1.1 million
 * back when the arbitrary is built, which took 1.6–3 s of the corpus's CPU.
 */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));

const escapeUnits = (text: string): string =>
  Array.from({ length: text.length }, (_, index) => `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`).join('');
/** A JSON string with every non-ASCII code unit as `\uXXXX`: pairs stay pairs, a lone surrogate stays lone. */
const escapedJsonString = (text: string): string => JSON.stringify(text).replace(/[^\x20-\x7e]/g, escapeUnits);

/** Raw JSON values for the text field `field` of at most `maxLength` code points, labelled with what they try. */
function textValues(field: string, maxLength: number, multiline: boolean): fc.Arbitrary<Labelled<string>> {
  const separator = multiline ? fc.constantFrom(' ', '\n', '\r\n', '\t') : fc.constantFrom(' ', '\u3000');
  // Whitespace that is not a control character the field refuses: tab and line breaks in messages only.
  const space = fc.constantFrom(...WHITESPACE.filter((unit) => unit >= ' ' || (multiline && '\t\n\r'.includes(unit))));
  const valid = fc.oneof(
    { weight: 4, arbitrary: visibleText },
    fc.tuple(visibleText, separator, visibleText).map(([a, between, b]) => `${a}${between}${b}`),
    fc.tuple(space, visibleText).map(([around, text]) => `${around}${text}${around}`),
  );
  const json = (text: string): string => JSON.stringify(text);
  return fc.oneof(
    { weight: 8, arbitrary: labelled('valid', valid.map(json)) },
    labelled(`${field}: blank`, fc.string({ unit: fc.constantFrom(...WHITESPACE), maxLength: 6 }).map(json)),
    labelled(`${field}: invisible but not whitespace`, fc.constantFrom(...NOT_WHITESPACE).map(json)),
    labelled(
      `${field}: control character`,
      fc.tuple(visibleText, controlCharacter, position).map(([text, control, at]) => json(insertAt(text, control, at))),
    ),
    labelled(
      `${field}: lone surrogate (JSON escape)`,
      fc.tuple(visibleText, loneSurrogate, position).map(([text, surrogate, at]) => json(insertAt(text, surrogate, at))),
    ),
    labelled(
      `${field}: every character escaped`,
      fc.oneof(valid, fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 8 })).map(escapedJsonString),
    ),
    labelled(
      `${field}: length at the limit`,
      fc
        .tuple(fc.constantFrom(maxLength - 1, maxLength, maxLength + 1), fc.constantFrom('x', '🐶', 'é', ' '))
        .map(([length, unit]) => json(`a${unit.repeat(length - 1)}`)),
    ),
    labelled(`${field}: any code units`, fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map(char), maxLength: 16 }).map(json)),
    labelled(`${field}: not a string`, fc.constantFrom('5', 'null', 'true', '[]', '{}', '["Rex"]')),
  );
}

// ---- JSON bodies --------------------------------------------------------------------------------

type Member = readonly [name: string, rawValue: string];

/** A JSON object written by hand, so that repeated and escaped member names reach the server as written. */
function objectText(members: readonly Member[], spaced = false): string {
  const gap = spaced ? ' ' : '';
  return `{${gap}${members.map(([name, value]) => `${JSON.stringify(name)}${gap}:${gap}${value}`).join(`,${gap}`)}${gap}}`;
}

/** The body with a Latin-1 `é` (byte 0xE9, never valid alone in UTF-8) at the start of its first member's value. */
function withLatin1Byte(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const at = bytes.indexOf(0x3a) + 2;
  return Uint8Array.from([...bytes.subarray(0, at), 0xe9, ...bytes.subarray(at)]);
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'application/json; charset="utf-8"',
  'application/json ; charset=utf-8',
  'application/json; foo=bar',
  'application/json; charset=utf-8; foo="a;b"',
  'application/json;',
  // Malformed (RFC 9110) or ambiguous: refused by both.
  'application/json; charset',
  'application/json; =x',
  'application/json; a b=c',
  'application/json; charset=utf-8;charset=latin1',
  'text/plain',
  'text/json',
  'application/vnd.api+json',
  'application/problem+json',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
  'application/json; charset=utf8',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  'application/json, text/plain',
  'application/octet-stream',
];

const idempotencyKeys = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  fc.uuid().map((uuid) => `${uuid},${uuid}`),
  fc.uuid().map((uuid) => `${uuid} x`),
  // Unique even when long: a key used twice with another body answers 422, which the corpus does not test.
  fc.tuple(fc.uuid(), fc.constantFrom(255, 256)).map(([uuid, length]) => uuid.padEnd(length, 'x')),
  fc.uuid().map((uuid) => `clé-${uuid}`),
);

const authorizations = fc.constantFrom<CorpusRequest['authorization']>({ scheme: 'bearer' }, { scheme: 'BEARER' }, 'none', {
  scheme: 'Basic',
});

/** Query strings with parameters no operation documents. */
const strayQuery = fc.constantFrom('foo=bar', 'stauts=sold', 'name=Rex', 'expand=1', '=x', 'x', 'Limit=5', '_=1');

interface BodyOperation {
  readonly operationId: 'createPet' | 'submitMessage';
  readonly path: string;
  /** Members of a body: valid, or labelled with the field they changed. */
  readonly members: fc.Arbitrary<Labelled<readonly Member[]>>;
  /** Members the schema does not know. */
  readonly extraMember: fc.Arbitrary<Member>;
}

/** Requests with a JSON body: valid ones, and every kind of change to the body, headers and query. */
function bodyRequests({ operationId, path, members, extraMember }: BodyOperation): fc.Arbitrary<CorpusRequest> {
  const request = (kind: string, body: string | Uint8Array, changes: Partial<CorpusRequest> = {}): CorpusRequest => ({
    operationId,
    kind,
    method: 'POST',
    path,
    query: '',
    headers: { 'content-type': 'application/json' },
    authorization: 'key',
    body,
    ...changes,
  });
  const valid = members.filter(([kind]) => kind === 'valid').map(([, list]) => list);
  return fc.oneof(
    { weight: 8, arbitrary: members.map(([kind, list]) => request(kind, objectText(list))) },
    fc.tuple(valid, extraMember, position).map(([list, extra, at]) => {
      const withExtra = [...list];
      withExtra.splice(Math.round(at * list.length), 0, extra);
      return request('body: unknown member', objectText(withExtra));
    }),
    fc
      .tuple(valid, fc.nat())
      .map(([list, drop]) => request('body: missing member', objectText(list.filter((_, index) => index !== drop % list.length)))),
    fc.tuple(valid, fc.nat(), fc.boolean(), fc.boolean()).map(([list, pick, sameValue, escaped]) => {
      const [name, value] = list[pick % list.length] as Member;
      const again = sameValue ? value : (list.find(([other]) => other !== name)?.[1] ?? '1');
      // `"\u006eame"` is `"name"` too: the repeat is one after unescaping.
      const repeated = escaped ? `"${escapeUnits(name.charAt(0))}${name.slice(1)}"` : JSON.stringify(name);
      return request('body: repeated member name', `${objectText(list).slice(0, -1)},${repeated}:${again}}`);
    }),
    fc.tuple(valid, fc.nat({ max: 9 })).map(([list, dice]) =>
      // One in ten padded past the 256 KiB limit with JSON whitespace: valid JSON, valid fields, too large.
      dice === 0
        ? request('body: over 256 KiB', `${objectText(list).slice(0, -1)}${' '.repeat(270_000)}}`)
        : request('body: spaced JSON', `\n ${objectText(list, true)} \r\n`),
    ),
    valid.map((list) => request('body: byte order mark', `\ufeff${objectText(list)}`)),
    fc
      .constantFrom(
        '',
        ' ',
        '{',
        '[]',
        'null',
        '"Rex"',
        '42',
        '{}',
        '{"a":1}{"b":2}',
        '{"name":"Rex",}',
        "{'name':'Rex'}",
        '[{"name":"Rex"}]',
      )
      .map((body) => request('body: not a JSON object', body)),
    valid.map((list) => request('body: not UTF-8', withLatin1Byte(objectText(list)))),
    fc
      .tuple(valid, fc.constantFrom(...CONTENT_TYPES))
      .map(([list, type]) => request('Content-Type', objectText(list), { headers: { 'content-type': type } })),
    valid.map((list) => request('Content-Type: none', objectText(list), { headers: {} })),
    fc
      .tuple(valid, idempotencyKeys)
      .map(([list, key]) =>
        request('Idempotency-Key', objectText(list), { headers: { 'content-type': 'application/json', 'idempotency-key': key } }),
      ),
    fc.tuple(valid, authorizations).map(([list, authorization]) => request('Authorization', objectText(list), { authorization })),
    fc.tuple(valid, strayQuery).map(([list, query]) => request('query parameter', objectText(list), { query })),
  );
}

const categoryIds: fc.Arbitrary<Labelled<string>> = fc.oneof(
  {
    weight: 8,
    arbitrary: labelled('valid', fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(1, Number.MAX_SAFE_INTEGER)).map(String)),
  },
  labelled(
    'categoryId: edge',
    fc.constantFrom(
      '0',
      '-0',
      '-1',
      '9007199254740992',
      '9007199254740993',
      '1.5',
      '1.0',
      '1e0',
      '1E2',
      '1e400',
      '"1"',
      'null',
      'true',
      '[1]',
    ),
  ),
);

const statusMembers: fc.Arbitrary<Labelled<readonly Member[]>> = fc.oneof(
  {
    weight: 8,
    arbitrary: labelled(
      'valid',
      fc
        .option(fc.constantFrom(...PET_STATUSES), { nil: undefined })
        .map((status): Member[] => (status ? [['status', JSON.stringify(status)]] : [])),
    ),
  },
  labelled(
    'status: not a status',
    fc.constantFrom('"lost"', '"SOLD"', '"Available"', '""', 'null', '1').map((value): Member[] => [['status', value]]),
  ),
);

/** One label for several changes (` + `), `valid` when there are none. */
const combined = (kinds: readonly string[]): string => kinds.filter((kind) => kind !== 'valid').join(' + ') || 'valid';

/** POST /v1/pets: NewPet bodies. */
export const createPetRequests: fc.Arbitrary<CorpusRequest> = bodyRequests({
  operationId: 'createPet',
  path: '/pets',
  members: fc
    .tuple(textValues('name', 200, false), categoryIds, statusMembers)
    .map(([[nameKind, name], [categoryKind, category], [statusKind, status]]) => [
      combined([nameKind, categoryKind, statusKind]),
      [['name', name], ['categoryId', category], ...status],
    ]),
  extraMember: fc.constantFrom<Member>(['id', '5'], ['color', '"red"'], ['Name', '"Rex"'], ['__proto__', '{}'], ['tags', '[]']),
});

/** POST /messages: NewMessage bodies. */
export const submitMessageRequests: fc.Arbitrary<CorpusRequest> = bodyRequests({
  operationId: 'submitMessage',
  path: '/messages',
  members: textValues('message', 10_000, true).map(([kind, message]) => [kind, [['message', message]]]),
  extraMember: fc.constantFrom<Member>(['priority', '1'], ['id', '"m1"'], ['Message', '"hi"'], ['__proto__', '{}']),
});

// ---- query and path parameters ------------------------------------------------------------------

/** An integer parameter written every way a client or a lenient tool might; `others` must all be refused. */
const integerTexts = (parameter: string, valid: fc.Arbitrary<number>, others: readonly string[]): fc.Arbitrary<Labelled<string>> =>
  fc.oneof(
    { weight: 4, arbitrary: labelled('valid', valid.map(String)) },
    labelled(
      `${parameter}: not canonical decimal`,
      valid.chain((value) => fc.constantFrom(`0${value}`, `00${value}`, `+${value}`, `${value}.0`, `${value}e0`, ` ${value}`, `${value} `)),
    ),
    labelled(`${parameter}: other text`, fc.constantFrom('', '0', '-0', '-1', '1e1', 'abc', '0x10', '１２', ...others)),
  );

type Pair = readonly [name: string, value: string];
const queryText = (pairs: readonly Pair[]): string =>
  pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
const statusPairs = (status: string | null | undefined): Pair[] => (status ? [['status', status]] : []);

/** GET /v1/pets: limit, status and cursor (issued ones, with their filter or another), and their mutations. */
export function listPetsRequests(issued: readonly IssuedLink[]): fc.Arbitrary<CorpusRequest> {
  const request = (kind: string, pairs: readonly Pair[], query = queryText(pairs)): CorpusRequest => ({
    operationId: 'listPets',
    kind,
    method: 'GET',
    path: '/pets',
    query,
    headers: {},
    authorization: 'key',
  });
  const limit = fc.option(integerTexts('limit', fc.integer({ min: 1, max: 100 }), ['101', '1000']), { nil: undefined });
  const status = fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined });
  const link = fc.constantFrom(...issued);
  const limitPairs = (labelledLimit: Labelled<string> | undefined): Pair[] => (labelledLimit ? [['limit', labelledLimit[1]]] : []);
  const badCursors = fc.oneof(
    labelled('cursor: not issued', fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/)),
    labelled(
      'cursor: not issued (other characters)',
      fc.constantFrom('%%%', 'abc=', 'a.b', 'a+b', 'a/b', '😀', 'eyJ2IjoxfQ==', 'A'.repeat(257), ''),
    ),
    labelled(
      'cursor: issued then edited',
      link.chain(({ cursor }) =>
        fc.constantFrom(cursor.slice(0, -1), cursor.slice(0, -4), `${cursor}A`, `${cursor}=`, cursor.toLowerCase()),
      ),
    ),
  );
  const repeated = fc.oneof(
    fc.constantFrom<Pair[]>(
      [
        ['limit', '5'],
        ['limit', '5'],
      ],
      [
        ['limit', '5'],
        ['limit', '6'],
      ],
      [
        ['status', 'sold'],
        ['status', 'sold'],
      ],
    ),
    link.map(({ cursor, status: filter }): Pair[] => [...statusPairs(filter), ['cursor', cursor], ['cursor', cursor]]),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(limit, status).chain(([labelledLimit, filter]) => {
        const pairs = [...limitPairs(labelledLimit), ...statusPairs(filter)];
        // Any order: a query's parameters are named, not positional.
        return fc.shuffledSubarray(pairs, { minLength: pairs.length }).map((shuffled) => request(labelledLimit?.[0] ?? 'valid', shuffled));
      }),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(link, limit)
        .map(([{ cursor, status: filter }, labelledLimit]) =>
          request(combined([labelledLimit?.[0] ?? 'valid', 'cursor: issued for this filter']), [
            ...limitPairs(labelledLimit),
            ...statusPairs(filter),
            ['cursor', cursor],
          ]),
        ),
    },
    link.chain(({ cursor, status: filter }) =>
      fc
        .constantFrom(null, ...PET_STATUSES)
        .filter((other) => other !== filter)
        .map((other) => request('cursor: issued for another filter', [...statusPairs(other), ['cursor', cursor]])),
    ),
    fc.tuple(badCursors, status).map(([[kind, cursor], filter]) => request(kind, [...statusPairs(filter), ['cursor', cursor]])),
    fc
      .constantFrom('lost', 'SOLD', 'Sold', '', 'sold ', 'available,sold')
      .map((text) => request('status: not a status', [['status', text]])),
    repeated.map((pairs) => request('query parameter: repeated', pairs)),
    strayQuery.map((query) => request('query parameter: unknown', [], query)),
    fc
      .constantFrom('status=%73old', 'limit=%35', 'status=sold&', '&limit=5', 'limit=5&&status=pending')
      .map((query) => request('query: odd but valid encoding', [], query)),
    authorizations.map((authorization) => ({ ...request('Authorization', []), authorization })),
  );
}

/** GET /v1/pets/{petId}: the ids of pets that exist, written every way, and other paths. */
export function getPetRequests(ids: readonly number[]): fc.Arbitrary<CorpusRequest> {
  const request = (kind: string, segment: string, query = ''): CorpusRequest => ({
    operationId: 'getPet',
    kind,
    method: 'GET',
    path: `/pets/${segment}`,
    query,
    headers: {},
    authorization: 'key',
  });
  const id = fc.constantFrom(...ids);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: integerTexts('petId', id, ['9007199254740992', '9007199254740993', '12345678901234567890']).map(([kind, text]) =>
        request(kind, encodeURIComponent(text)),
      ),
    },
    id.map((value) =>
      request(
        'petId: percent-encoded digits',
        String(value).replace(/[0-9]/g, (digit) => `%3${digit}`),
      ),
    ),
    id
      .chain((value) => fc.constantFrom(`${value}/`, `${value}/extra`, `${value};x`, `${value}%2F1`))
      .map((segment) => request('path: more than an id', segment)),
    fc.constantFrom('', '%zz', '%E9').map((segment) => request('path: empty or not percent-encoded UTF-8', segment)),
    fc.tuple(id, strayQuery).map(([value, query]) => request('query parameter: unknown', String(value), query)),
    fc.tuple(id, authorizations).map(([value, authorization]) => ({ ...request('Authorization', String(value)), authorization })),
  );
}

/** Methods and paths no document lists, on both base URLs. */
export const unknownRouteRequests: fc.Arbitrary<CorpusRequest> = fc
  .constantFrom<[PublicOperationId, string, string]>(
    ['listPets', 'DELETE', '/pets'],
    ['listPets', 'PUT', '/pets'],
    ['getPet', 'DELETE', '/pets/1'],
    ['getPet', 'POST', '/pets/1'],
    ['listPets', 'GET', '/store/orders'],
    ['listPets', 'GET', '/pets/'],
    ['submitMessage', 'GET', '/messages'],
    ['submitMessage', 'PUT', '/messages'],
    ['submitMessage', 'GET', '/messages/1'],
  )
  .map(([operationId, method, path]) => ({
    operationId,
    kind: 'route: not documented',
    method,
    path,
    query: '',
    headers: {},
    authorization: 'key',
  }));
