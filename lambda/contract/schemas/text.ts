/**
 * What counts as text in every string field, decided once for names and messages alike. Lengths are
 * Unicode code points (what zod's length checks and JSON Schema's `maxLength` count: 🐶 is one).
 * Text must be well-formed Unicode — a lone surrogate cannot be stored as UTF-8 without DynamoDB
 * silently turning it into U+FFFD — and free of control characters: C0 (NUL, escapes …), DEL and C1
 * (U+0080–U+009F, which in real text are nearly always mis-decoded Windows-1252) break logs and UIs.
 * Multi-line fields may hold tab and line breaks (CR, LF).
 */
import * as z from 'zod/mini';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_EXCEPT_TAB_AND_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export interface TextRules {
  readonly maxLength: number;
  /** Tab, CR and LF allowed (messages); single-line fields (names) allow no control character. */
  readonly multiline: boolean;
}

export function cleanText({ maxLength, multiline }: TextRules) {
  const control = multiline ? CONTROL_EXCEPT_TAB_AND_LINE_BREAKS : ANY_CONTROL;
  return z.string().check(
    z.minLength(1),
    z.maxLength(maxLength),
    z.refine((text) => text.trim().length > 0, { error: 'must not be blank' }),
    z.refine((text) => text.isWellFormed() && !control.test(text), {
      error: multiline
        ? 'must be well-formed Unicode text without control characters other than tab and line breaks'
        : 'must be well-formed Unicode text without control characters',
    }),
  );
}

/** `10000` → `10,000`. Not toLocaleString: loading ICU's locale data would cost every cold start (`npm run bench`). */
const withThousands = (value: number): string => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

/** How the rules read in the API's documentation. */
export const describeText = ({ maxLength, multiline }: TextRules): string =>
  `1 to ${withThousands(maxLength)} characters (Unicode code points), not blank, well-formed Unicode, ` +
  (multiline ? 'no control characters except tab and line breaks' : 'no control characters');
