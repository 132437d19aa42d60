/**
 * What counts as text in every string field, decided once for names and messages alike. Lengths are
 * Unicode code points (what zod's length checks and JSON Schema's `maxLength` count: 🐶 is one).
 * Text must be well-formed Unicode — a lone surrogate cannot be stored as UTF-8 without DynamoDB
 * silently turning it into U+FFFD — and free of control characters: C0 (NUL, escapes …), DEL and C1
 * (U+0080–U+009F, which in real text are nearly always mis-decoded Windows-1252) break logs and UIs.
 * Multi-line fields may hold tab and line breaks (CR, LF). Not blank: something other than what
 * `String.prototype.trim` removes (JS `\s` is exactly that set).
 *
 * All of it is one regular expression, so the OpenAPI document's `pattern` is the very check the
 * service runs and the two cannot disagree. It means the same with and without the `u` flag: ajv (and
 * so Prism) compile patterns with `u`, many generated clients with `new RegExp(pattern)`. Without `u`
 * a pattern sees UTF-16 code units, with it code points; so surrogates are matched only as a pair
 * (one code point either way) and every class excludes the surrogate range (under `u`, that range is
 * exactly the lone surrogates). No lookaround, and each step has one way to match: linear time.
 */
import * as z from 'zod/mini';

/** Class ranges, written as escapes: the pattern's source goes into JSON, where a lone surrogate is not text. */
const ALL_CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROLS_EXCEPT_TAB_AND_LINE_BREAKS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
const SURROGATES = '\\ud800-\\udfff';
/** A high surrogate then a low one. (Never `\udbff\udc00` side by side: under `u` two such escapes are one code point.) */
const SURROGATE_PAIR = '[\\ud800-\\udbff][\\udc00-\\udfff]';

/**
 * `^ space* visible any* $`: allowed whitespace, then one allowed character that is not whitespace,
 * then anything allowed. `[^\S…]` is "whitespace but not these".
 */
export function textPattern(multiline: boolean): RegExp {
  const controls = multiline ? CONTROLS_EXCEPT_TAB_AND_LINE_BREAKS : ALL_CONTROLS;
  const space = `[^\\S${controls}]`;
  const visible = `(?:[^\\s${controls}${SURROGATES}]|${SURROGATE_PAIR})`;
  const any = `(?:[^${controls}${SURROGATES}]|${SURROGATE_PAIR})`;
  return new RegExp(`^${space}*${visible}${any}*$`);
}

const SINGLE_LINE_TEXT = textPattern(false);
const MULTILINE_TEXT = textPattern(true);

export const BLANK_TEXT_MESSAGE = 'must not be blank';
const MALFORMED_TEXT_MESSAGE = 'must be well-formed Unicode text without control characters';
const MALFORMED_MULTILINE_TEXT_MESSAGE = 'must be well-formed Unicode text without control characters other than tab and line breaks';

export interface TextRules {
  readonly maxLength: number;
  /** Tab, CR and LF allowed (messages); single-line fields (names) allow no control character. */
  readonly multiline: boolean;
}

export function cleanText({ maxLength, multiline }: TextRules) {
  const malformed = multiline ? MALFORMED_MULTILINE_TEXT_MESSAGE : MALFORMED_TEXT_MESSAGE;
  return z.string().check(
    z.minLength(1),
    z.maxLength(maxLength),
    // One check, two messages: the regex decides, the input only picks the wording clients know.
    z.regex(multiline ? MULTILINE_TEXT : SINGLE_LINE_TEXT, {
      error: (issue) => (typeof issue.input === 'string' && issue.input.trim() === '' ? BLANK_TEXT_MESSAGE : malformed),
    }),
  );
}

/** `10000` → `10,000`. Not toLocaleString: loading ICU's locale data would cost every cold start (`npm run bench`). */
const withThousands = (value: number): string => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

/** How the rules read in the API's documentation. */
export const describeText = ({ maxLength, multiline }: TextRules): string =>
  `1 to ${withThousands(maxLength)} characters (Unicode code points), not blank, well-formed Unicode, ` +
  (multiline ? 'no control characters except tab and line breaks' : 'no control characters');
