/** Message schemas (the getting-started `POST /messages`): types, validation and OpenAPI source. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/** Long enough for any real note, small enough that a stored item stays far below 400 KB. */
export const MESSAGE_MAX_LENGTH = 10_000;

// Tabs and line breaks are text; other control characters (NUL, escapes) are not.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const MessageText = z.string().check(
  z.minLength(1),
  z.maxLength(MESSAGE_MAX_LENGTH),
  z.refine((text) => text.trim().length > 0, { error: 'must not be blank' }),
  // A lone surrogate cannot be stored as UTF-8 without silently changing the text.
  z.refine((text) => text.isWellFormed() && !FORBIDDEN_CONTROL.test(text), {
    error: 'must be well-formed Unicode text without control characters other than tab and line breaks',
  }),
).register(apiDocs, {
  description: `The text: 1 to ${MESSAGE_MAX_LENGTH} characters, not blank, well-formed Unicode; tab and line breaks are the only control characters allowed.`,
  examples: ['Hello from the getting-started guide'],
});

export const SubmitMessageRequest = z.strictObject({ message: MessageText }).register(apiDocs, {
  id: 'NewMessage',
  description: 'A message to submit. Fields other than `message` are refused.',
  examples: [{ message: 'Hello from the getting-started guide' }],
});
export type SubmitMessageRequest = z.infer<typeof SubmitMessageRequest>;
