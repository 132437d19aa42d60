/**
 * Integer query and path parameters (`limit`, `petId`) are canonical decimal text on the wire, as a URI
 * template writes an integer, and the OpenAPI document says so next to `type: integer`, from the same
 * constants. The cursor's characters are one pattern for the decoder, the schema and the document.
 */
import * as z from 'zod/mini';
import { INTEGER_TEXT, INTEGER_TEXT_RULE } from '#contract/schemas/common';
import { denotesInteger } from '#http/middleware/json-body';
import { GetPetPath } from '#contract/schemas/get-pet-path';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN, ListPetsQuery } from '#contract/schemas/list-pets-query';
import { encodeCursor } from '#http/page-cursor';
import { SchemaConverter } from '#openapi/json-schema';

/** What RFC 6570 (`{x}`, `{?x}`) makes of an integer: JavaScript's String(n) for safe integers. */
const expand = (value: number): string => encodeURIComponent(String(value));

test.each([0, 1, 7, 20, 100, -1, -42, 1234567890, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])(
  'an integer as a URI template expands it (%d) is integer text',
  (value) => {
    expect(INTEGER_TEXT.test(expand(value))).toBe(true);
  },
);

test.each(['01', '007', '+5', '1e1', '1E1', '5.0', ' 5', '5 ', '-0', '0x10', '', '-', '１２', '5,5'])('%p is not integer text', (text) => {
  expect(INTEGER_TEXT.test(text)).toBe(false);
});

describe('limit', () => {
  const limit = (text: string) => z.safeParse(ListPetsQuery, { limit: text });

  test('1 to 100 in canonical form are accepted as numbers', () => {
    for (let value = 1; value <= 100; value++) expect(limit(String(value))).toMatchObject({ success: true, data: { limit: value } });
  });

  test.each(['01', '001', '0100', '+5', '1e1', ' 5', '5.0', '0', '101', '-1', ''])('%p is refused with the one limit message', (text) => {
    expect(limit(text).error?.issues.map((issue) => issue.message)).toEqual(['must be an integer from 1 to 100']);
  });
});

describe('petId', () => {
  const petId = (text: string) => z.safeParse(GetPetPath, { petId: text });

  test.each(['1', '42', String(Number.MAX_SAFE_INTEGER)])('%s names a pet', (text) => {
    expect(petId(text)).toMatchObject({ success: true, data: { petId: Number(text) } });
  });

  test.each(['042', '+42', '4.2e1', ' 42', '0', '-5', '9007199254740992', '9007199254740993', '12345678901234567890123'])(
    '%p is refused naming the id space',
    (text) => {
      expect(petId(text).error?.issues.map((issue) => issue.message)).toEqual([`must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`]);
    },
  );
});

describe('the document', () => {
  const converter = new SchemaConverter();
  const [petIdParameter] = converter.parameters(GetPetPath, 'path');
  const query = Object.fromEntries(converter.parameters(ListPetsQuery, 'query').map((parameter) => [parameter.name, parameter]));

  test('keeps `type: integer` for limit and petId and says in their descriptions how they are written', () => {
    for (const parameter of [query.limit, petIdParameter]) {
      expect(parameter?.schema.type).toBe('integer');
      expect(parameter?.description).toContain(INTEGER_TEXT_RULE);
    }
  });

  test("shows the cursor's pattern and length bound, the decoder's own", () => {
    expect(query.cursor?.schema).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: CURSOR_MAX_LENGTH,
      pattern: CURSOR_PATTERN.source,
    });
    expect(encodeCursor({ lastId: Number.MAX_SAFE_INTEGER, status: 'available' })).toMatch(CURSOR_PATTERN);
  });
});

describe('cursor', () => {
  const cursor = (text: string) => z.safeParse(ListPetsQuery, { cursor: text });

  test.each(['%%%', 'abc=', 'a.b', 'a b', 'A'.repeat(CURSOR_MAX_LENGTH + 1), ''])('%p is refused with one message', (text) => {
    expect(cursor(text).error?.issues).toHaveLength(1);
  });

  test('text in the pattern passes the schema; the decoder then judges it', () => {
    expect(cursor('AAAA').success).toBe(true);
  });
});

describe('JSON number text in a body denotes an integer by its exact value, not the double JSON.parse rounds it to', () => {
  test.each(['0', '-0', '1', '1.0', '1e0', '1E+2', '10e-1', '0.1e1', '1.50e1', '9007199254740993', '0.000e-5', '-3.0'])(
    '%s does',
    (text) => {
      expect(denotesInteger(text)).toBe(true);
    },
  );
  test.each(['1.0000000000000001', '0.5', '1e-1', '15e-1', '9007199254740992.5', '1.000000000000000000001e20'])('%s does not', (text) => {
    expect(denotesInteger(text)).toBe(false);
  });
});
