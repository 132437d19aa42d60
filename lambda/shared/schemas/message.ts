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

/** `queued`: accepted and stored; nothing in this version consumes the queue yet. */
export const MessageStatus = z.enum(['queued']).register(apiDocs, {
  id: 'MessageStatus',
  description: '`queued`: accepted and stored durably. Nothing in this version consumes the queue, so the status never changes.',
});

export const Message = z.strictObject({
  id: z.string().register(apiDocs, {
    description: 'A ULID: 26 characters, sortable by creation time.',
    examples: ['01KAQ5X4R3M0V6W8Y9Z1B2C3D4'],
  }),
  message: z.string().register(apiDocs, { description: 'The submitted text, unchanged.' }),
  status: MessageStatus,
  createdAt: z.iso.datetime().register(apiDocs, {
    description: 'When the message was accepted: ISO 8601, UTC, with milliseconds.',
    examples: ['2026-11-22T01:27:44.123Z'],
  }),
}).register(apiDocs, {
  id: 'Message',
  description: 'A submitted message.',
  examples: [{ id: '01KAQ5X4R3M0V6W8Y9Z1B2C3D4', message: 'Hello from the getting-started guide', status: 'queued', createdAt: '2026-11-22T01:27:44.123Z' }],
});
export type Message = z.infer<typeof Message>;
