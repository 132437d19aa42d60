/** For the OpenAPI document and the types only: no handler validates its answers, so no bundle builds these. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';

/** `queued`: accepted and stored; nothing in this version consumes the queue yet. */
export const MessageStatus = z.enum(['queued']).register(apiDocs, {
  id: 'MessageStatus',
  description: '`queued`: accepted and stored durably. Nothing in this version consumes the queue, so the status never changes.',
});

export const Message = z
  .strictObject({
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
  })
  .register(apiDocs, {
    id: 'Message',
    description: 'A submitted message.',
    examples: [
      {
        id: '01KAQ5X4R3M0V6W8Y9Z1B2C3D4',
        message: 'Hello from the getting-started guide',
        status: 'queued',
        createdAt: '2026-11-22T01:27:44.123Z',
      },
    ],
  });
export type Message = z.infer<typeof Message>;
