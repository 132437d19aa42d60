/** GET /v1/pets query parameters. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';
import { PetStatus } from './pet-status';

export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;
const LIMIT_MESSAGE = `must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`;

/** Query strings arrive as text: accept plain decimal digits only (no `2.5`, `1e1`, `0x10`, ` 5`). */
const ListLimit = z
  .pipe(
    z.string().check(z.regex(/^[0-9]{1,3}$/, { error: LIMIT_MESSAGE })),
    z.transform((text: string) => Number(text)),
  )
  .check(z.refine((n: number) => n >= LIST_LIMIT_MIN && n <= LIST_LIMIT_MAX, { error: LIMIT_MESSAGE }))
  .register(apiDocs, {
    description: 'Maximum number of animals in the page.',
    wire: { type: 'integer', minimum: LIST_LIMIT_MIN, maximum: LIST_LIMIT_MAX },
  });

/** Cursors are opaque tokens this API issued (see page-cursor.ts); bound their size before decoding. */
export const CURSOR_MAX_LENGTH = 256;
const Cursor = z
  .string()
  .check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(CURSOR_MAX_LENGTH, { error: 'is not a cursor issued by this API' }))
  .register(apiDocs, {
    description:
      'Where the page starts: an opaque token taken from the `Link` header of the previous page (never built by hand). ' +
      'It holds the position after the last animal of that page and the `status` filter it was issued for; it does not expire. ' +
      'A cursor that is not well-formed, or used with another `status` filter, answers 400. It is not signed: a cursor edited into ' +
      'another well-formed position lists from that position, which shows nothing the listing would not show anyway.',
  });

export const ListPetsQuery = z.strictObject({
  limit: z._default(ListLimit, LIST_LIMIT_DEFAULT),
  status: z.optional(PetStatus).register(apiDocs, {
    description: 'Only animals with this status, oldest first. Without it, every animal in an unspecified but stable order.',
  }),
  cursor: z.optional(Cursor),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuery>;
