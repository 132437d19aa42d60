/**
 * What counts as text in every string field. Lengths count code points. Well-formed Unicode (DynamoDB would turn a
 * lone surrogate into U+FFFD) without control characters (C0, DEL, C1 break logs and UIs; multi-line fields may
 * hold tab, CR, LF), and not blank (JS `\s`, what `trim` removes).
 *
 * One regular expression, so the OpenAPI `pattern` is the very check the service runs. It means the same with and
 * without the `u` flag (ajv uses it, many clients do not): surrogates match only as a pair, every class excludes
 * the surrogate range. No lookaround, one way to match each step: linear time.
 */
import * as z from 'zod/mini';

/** Class ranges, written as escapes: the pattern's source goes into JSON, where a lone surrogate is not text. */
const ALL_CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROLS_EXCEPT_TAB_AND_LINE_BREAKS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
const SURROGATES = '\\ud800-\\udfff';
/** A high surrogate then a low one. (Never `\udbff\udc00` side by side: under `u` two such escapes are one code point.) */
const SURROGATE_PAIR = '[\\ud800-\\udbff][\\udc00-\\udfff]';

/** `^ space* visible any* $`; `[^\S…]` is "whitespace but not these". */
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
