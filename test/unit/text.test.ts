/**
 * The text rules are one regex (lambda/contract/schemas/text.ts), so that the OpenAPI `pattern` is the
 * service's own check. These tests hold it to the rules as they were first written (trim, isWellFormed,
 * a control-character class), with and without the `u` flag that ajv and Prism add and generated clients
 * often leave out.
 */
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import * as z from 'zod/mini';
import { BLANK_TEXT_MESSAGE, cleanText, textPattern, type TextRules } from '#contract/schemas/text';
import { WHITESPACE } from '../support/text-edges';

// eslint-disable-next-line no-control-regex -- the rules under test are about control characters
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- the rules under test are about control characters
const CONTROL_EXCEPT_TAB_AND_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** The rules as written before they became a pattern: the reference the regex must match exactly. */
const meetsRules = (text: string, multiline: boolean): boolean =>
  text.trim().length > 0 && text.isWellFormed() && !(multiline ? CONTROL_EXCEPT_TAB_AND_LINE_BREAKS : ANY_CONTROL).test(text);

/** The schema as it was, refine by refine, for the messages clients have seen so far. */
function referenceSchema({ maxLength, multiline }: TextRules) {
  return z.string().check(
    z.minLength(1),
    z.maxLength(maxLength),
    z.refine((text) => text.trim().length > 0, { error: BLANK_TEXT_MESSAGE }),
    z.refine((text) => text.isWellFormed() && !(multiline ? CONTROL_EXCEPT_TAB_AND_LINE_BREAKS : ANY_CONTROL).test(text), {
      error: multiline
        ? 'must be well-formed Unicode text without control characters other than tab and line breaks'
        : 'must be well-formed Unicode text without control characters',
    }),
  );
}

const VARIANTS = [
  ['single-line (names)', false],
  ['multiline (messages)', true],
] as const;

/** Every kind of character the rules tell apart, each a code unit or a pair, so short strings mix them densely. */
const EDGE_UNITS = [
  ...WHITESPACE,
  ...['\u0085', '\u180e', '\u200b', '\u0000', '\u0007', '\u001b', '\u001f', '\u007f', '\u0080', '\u009b', '\u009f'],
  ...['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\udc36', '🐶', '👩‍💻', 'a', 'é', '\ud7ff', '\ue000', '\uffff'],
];
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...EDGE_UNITS), maxLength: 8 }),
  fc.string({ unit: codeUnit, maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

test('JS `\\s` is exactly the set String.prototype.trim removes, with and without `u`', () => {
  const differing: string[] = [];
  for (let code = 0; code <= 0xffff; code++) {
    const char = String.fromCharCode(code);
    const trimmed = char.trim() === '';
    if (/\s/.test(char) !== trimmed || /\s/u.test(char) !== trimmed) differing.push(code.toString(16));
  }
  expect(differing).toEqual([]);
});

describe.each(VARIANTS)('the %s text pattern', (_label, multiline) => {
  const plain = textPattern(multiline);
  const unicode = new RegExp(plain.source, 'u');

  test('has no flags, so zod writes it into the document as the service runs it', () => {
    expect(plain.flags).toBe('');
  });

  test('gives the reference verdict on every single code unit, alone and between letters', () => {
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, `a${char}`, `${char}a`, `${char} `]) {
        const expected = meetsRules(text, multiline);
        if (plain.test(text) !== expected || unicode.test(text) !== expected) wrong.push(JSON.stringify(text));
      }
    }
    expect(wrong).toEqual([]);
  });

  test('gives the reference verdict with and without `u` on generated text (lone surrogates, emoji, Unicode spaces, controls)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyText, (text) => {
        const expected = meetsRules(text, multiline);
        if (expected) accepted++;
        expect({ text, plain: plain.test(text), unicode: unicode.test(text) }).toEqual({ text, plain: expected, unicode: expected });
      }),
      { numRuns: 10_000 },
    );
    // Not vacuous: both verdicts come up often.
    expect(accepted).toBeGreaterThan(1_000);
    expect(accepted).toBeLessThan(9_000);
  });

  test('refuses long hostile text without backtracking blow-up', () => {
    const hostile = [' '.repeat(50_000), `${'\ud800'.repeat(50_000)}a`, `${'a'.repeat(50_000)}\u0000`, `${'🐶 '.repeat(25_000)}\ud800`];
    for (const text of hostile) for (const pattern of [plain, unicode]) expect(pattern.test(text)).toBe(false);
  });
});

describe.each(VARIANTS)('cleanText, %s', (_label, multiline) => {
  const rules = { maxLength: 6, multiline };
  const schema = cleanText(rules);
  const reference = referenceSchema(rules);
  const messages = (result: { readonly error?: { readonly issues: readonly { readonly message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? [];

  test('accepts and refuses exactly what the refine-based rules did, with their messages', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const [now, before] = [z.safeParse(schema, text), z.safeParse(reference, text)];
        expect({ text, accepted: now.success }).toEqual({ text, accepted: before.success });
        // Text both blank and not clean (e.g. a lone tab in a name) now gets one of its two messages.
        for (const message of messages(now)) expect(messages(before)).toContain(message);
        if (messages(before).length <= 1 || !messages(before).includes(BLANK_TEXT_MESSAGE)) expect(messages(now)).toEqual(messages(before));
      }),
      { numRuns: 5_000 },
    );
  });

  test("is documented as one `pattern` that ajv (the `u` flag, as Prism) applies with the service's verdict", () => {
    const jsonSchema = z.toJSONSchema(schema, { io: 'input' });
    expect(jsonSchema).toMatchObject({ type: 'string', minLength: 1, maxLength: 6, pattern: textPattern(multiline).source });
    const validate = new Ajv2020({ strict: true }).compile(jsonSchema);
    fc.assert(
      fc.property(anyText, (text) => {
        expect({ text, document: validate(text) }).toEqual({ text, document: z.safeParse(schema, text).success });
      }),
      { numRuns: 2_000 },
    );
  });

  test('counts code points: emoji up to the limit are accepted, one more is refused', () => {
    expect(z.safeParse(schema, '🐶'.repeat(6)).success).toBe(true);
    expect(z.safeParse(schema, '🐶'.repeat(7)).success).toBe(false);
  });

  test.each([
    ['blank text', ' \u3000\u00a0\ufeff', BLANK_TEXT_MESSAGE],
    ['empty text', '', BLANK_TEXT_MESSAGE],
    ['text with a control character', 'a\u0007b', multiline ? 'other than tab and line breaks' : 'without control characters'],
    ['text with a lone surrogate', 'a\udc00', 'well-formed Unicode'],
  ])('refuses %s, saying why', (_case, text, message) => {
    const result = z.safeParse(schema, text);
    expect(messages(result).join('; ')).toContain(message);
  });
});

test('tab and line breaks are text in a message, not in a name', () => {
  const message = cleanText({ maxLength: 20, multiline: true });
  const name = cleanText({ maxLength: 20, multiline: false });
  for (const text of ['a\tb', 'line\r\nnext', 'a\n']) {
    expect(z.safeParse(message, text).success).toBe(true);
    expect(z.safeParse(name, text).success).toBe(false);
  }
});
