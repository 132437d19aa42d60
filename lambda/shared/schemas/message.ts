/** Message schemas (the getting-started `POST /messages`): types, validation and OpenAPI source. */
import * as z from 'zod/mini';

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
);

export const SubmitMessageRequest = z.strictObject({ message: MessageText });
export type SubmitMessageRequest = z.infer<typeof SubmitMessageRequest>;

/** `queued`: accepted and stored; nothing in this version consumes the queue yet. */
export const MessageStatus = z.enum(['queued']);

export const Message = z.strictObject({
  id: z.string(),
  message: z.string(),
  status: MessageStatus,
  createdAt: z.iso.datetime(),
});
export type Message = z.infer<typeof Message>;
