/**
 * Property-based: whatever a client sends — arbitrary JSON, broken JSON, numbers at the safe-integer
 * edges, any UTF-16 (lone surrogates, NUL), very long values, `__proto__`/`constructor` keys, odd
 * headers and query strings — every operation answers a documented status with the spec's Error body
 * on failure, never a 5xx, and a failed request leaves every table exactly as it was.
 */
import fc from 'fast-check';
import { expectError, useTestApi, type ApiAnswer } from '../support/test-api';

const api = useTestApi();

// No interruptAfterTimeLimit: fast-check counts an interrupted property as passed; jest's timeout is the hang ceiling.
const RUNS = { numRuns: 60 } as const;
const ERROR_STATUSES = new Set([400, 401, 404, 413, 422]);

/** Any UTF-16 code unit, so lone surrogates and NUL appear. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: codeUnit, minLength: 190, maxLength: 12_000 }),
);
const edgeNumberText = fc.oneof(
  fc.constantFrom(
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '0',
    '-0',
    '1e308',
    '1e309',
    '-1',
    '1.0',
    '2.5',
    '1e3',
    '0.1e1',
    '123456789012345678901234567890',
  ),
  fc.integer().map(String),
  fc.double().filter(Number.isFinite).map(String),
);
const jsonText = (value: unknown): string => JSON.stringify(value ?? null);
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map(jsonText),
  anyText.map(jsonText),
  edgeNumberText,
  fc.constantFrom('true', 'null', '[]', '{}'),
);
const fieldName = fc.oneof(
  fc.constantFrom('name', 'categoryId', 'status', 'id', 'message', '__proto__', 'constructor', 'prototype', 'toString'),
  fc.string({ maxLength: 12 }),
);

/** A JSON object written by hand, so duplicate and `__proto__` keys survive into the request text. */
const objectText = fc
  .array(fc.tuple(fieldName, fieldValue), { maxLength: 6 })
  .map((fields) => `{${fields.map(([name, value]) => `${jsonText(name)}:${value}`).join(',')}}`);
const bodyText = fc.oneof(
  objectText,
  fc.jsonValue({ maxDepth: 3 }).map(jsonText),
  anyText, // mostly not JSON at all
  fc.constantFrom('', ' ', '{', '{"name":', 'null', '[]', '"x"', '{"name":"a","categoryId":1}{"x":1}', '\u0000'),
  fc
    .tuple(fieldValue, fieldValue, fc.constantFrom('available', 'pending', 'sold', 'lost'))
    .map(([name, category, status]) => `{"name":${name},"categoryId":${category},"status":"${status}"}`),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/problem+json',
  'APPLICATION/JSON',
);
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });
const extraHeaders = fc.dictionary(
  fc.constantFrom('x-anything', 'idempotency-key', 'accept', 'x-forwarded-proto', 'content-encoding', 'cookie', 'x-amzn-trace-id'),
  headerValue,
  { maxKeys: 3 },
);
/** Percent-encodes any UTF-16, sending a lone surrogate as the (invalid UTF-8) bytes it would take. */
const encodeAny = (text: string): string =>
  Array.from(text, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      const code = char.charCodeAt(0);
      return ['%ED', (0xa0 | ((code >> 6) & 0x1f)).toString(16), (0x80 | (code & 0x3f)).toString(16)].join('%').toUpperCase();
    }
  }).join('');
const rawQuery = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'status', 'cursor', 'x', 'limit', '__proto__', ''),
        fc.oneof(edgeNumberText, anyText, fc.constantFrom('sold', 'available', 'SOLD', '%', '%zz')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => pairs.map(([name, value]) => `${encodeAny(name)}=${encodeAny(value).replace(/%25zz$/, '%zz')}`).join('&')),
  fc
    .string({ unit: fc.constantFrom('a', '=', '&', '%', '2', 'F', '+', 'é', ';'), maxLength: 30 })
    .map((text) => encodeURI(text).replace(/%25/g, '%')),
);

async function snapshot(): Promise<string> {
  const [pets, messages, idempotency] = await Promise.all([api.scan('pets'), api.scan('messages'), api.scan('idempotency')]);
  const byKey = (items: Record<string, unknown>[]) => items.map((item) => JSON.stringify(item)).sort();
  return JSON.stringify([byKey(pets), byKey(messages), byKey(idempotency)]);
}

/** The invariant: never 5xx; errors are exactly the spec's body; a failed request changed nothing. */
async function expectSafe(send: () => Promise<ApiAnswer>, successStatuses: readonly number[]): Promise<void> {
  const before = await snapshot();
  const answer = await send();
  if (successStatuses.includes(answer.status)) return;
  expect(ERROR_STATUSES.has(answer.status)).toBe(true);
  expectError(answer, answer.status, (answer.json as { code: string }).code);
  expect(await snapshot()).toBe(before);
}

test('POST /v1/pets with arbitrary bodies, content types and headers', async () => {
  await fc.assert(
    fc.asyncProperty(bodyText, contentType, extraHeaders, async (body, type, headers) => {
      await expectSafe(() => api.call('POST', '/v1/pets', { body, headers: { ...headers, 'content-type': type } }), [201]);
    }),
    RUNS,
  );
});

test('POST /messages with arbitrary bodies, content types and headers', async () => {
  const messageBody = fc.oneof(
    bodyText,
    fc.tuple(anyText, fc.boolean()).map(([text, extra]) => `{"message":${jsonText(text)}${extra ? ',"message":1' : ''}}`),
  );
  await fc.assert(
    fc.asyncProperty(messageBody, contentType, extraHeaders, async (body, type, headers) => {
      await expectSafe(() => api.call('POST', '/messages', { body, headers: { ...headers, 'content-type': type } }), [202]);
    }),
    RUNS,
  );
});

test('GET /v1/pets with arbitrary query strings', async () => {
  await fc.assert(
    fc.asyncProperty(rawQuery, extraHeaders, async (query, headers) => {
      await expectSafe(() => api.call('GET', `/v1/pets?${query}`, { headers }), [200]);
    }),
    RUNS,
  );
});

test('GET /v1/pets/{petId} with arbitrary ids and query strings', async () => {
  const petId = fc.oneof(
    edgeNumberText,
    fc.string({ unit: fc.constantFrom('1', '0', '-', '.', 'e', 'x', '%', '2', 'F', '~'), minLength: 1, maxLength: 25 }),
  );
  await fc.assert(
    fc.asyncProperty(petId, fc.option(rawQuery), async (id, query) => {
      const path = `/v1/pets/${encodeAny(id).replace(/%25/g, '%')}${query === null ? '' : `?${query}`}`;
      await expectSafe(() => api.call('GET', path), [200]);
    }),
    RUNS,
  );
});

test('any operation with arbitrary Authorization headers never gets past auth', async () => {
  const authorization = fc.oneof(
    headerValue,
    headerValue.map((value) => `Bearer ${value}`),
    headerValue.map((value) => `bearer pst_${value}`),
  );
  const request = fc.constantFrom(
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
    ['POST', '/messages'],
    ['PUT', '/anything'],
  );
  await fc.assert(
    fc.asyncProperty(authorization, request, async (value, [method, path]) => {
      const before = await snapshot();
      const answer = await api.call(method, path, {
        key: null,
        headers: { authorization: value, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { body: '{"name":"a","categoryId":1,"message":"m"}' }),
      });
      expectError(answer, 401, 'unauthorized');
      expect(await snapshot()).toBe(before);
    }),
    RUNS,
  );
});
