/** Message schemas (the getting-started `POST /messages`): types, validation and OpenAPI source. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';
import { cleanText, describeText } from './text';

/** Long enough for any real note, small enough that a stored item stays far below 400 KB. */
export const MESSAGE_MAX_LENGTH = 10_000;

const MESSAGE_RULES = { maxLength: MESSAGE_MAX_LENGTH, multiline: true } as const;

export const MessageText = cleanText(MESSAGE_RULES).register(apiDocs, {
  description: `The text: ${describeText(MESSAGE_RULES)}.`,
  examples: ['Hello from the getting-started guide'],
});

export const SubmitMessageRequest = z.strictObject({ message: MessageText }).register(apiDocs, {
  id: 'NewMessage',
  description: 'A message to submit. Fields other than `message` are refused.',
  examples: [{ message: 'Hello from the getting-started guide' }],
});
export type SubmitMessageRequest = z.infer<typeof SubmitMessageRequest>;
