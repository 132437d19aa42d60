/** GET /v1/pets query parameters. */
import * as z from 'zod/mini';
import { apiDocs } from './api-docs';
import { INTEGER_TEXT_RULE, integerText } from './common';
import { PetStatus } from './pet-status';

export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;

const ListLimit = integerText(LIST_LIMIT_MIN, LIST_LIMIT_MAX, `must be an integer from ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}`).register(
  apiDocs,
  {
    description: `Maximum number of animals in the page. ${INTEGER_TEXT_RULE}`,
    wire: { type: 'integer', minimum: LIST_LIMIT_MIN, maximum: LIST_LIMIT_MAX },
  },
);

/** Cursors are base64url tokens (lambda/http/page-cursor.ts), bounded before anything decodes them. */
export const CURSOR_MAX_LENGTH = 256;
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Why a cursor is refused, whatever is wrong with it: the client's fix is the same. */
export const CURSOR_REFUSAL = 'is not a cursor issued by this API for this filter; follow the Link header of the previous page';

const Cursor = z
  .string()
  .check(
    z.minLength(1, { error: 'must not be empty', abort: true }),
    z.maxLength(CURSOR_MAX_LENGTH, { error: CURSOR_REFUSAL, abort: true }),
    z.regex(CURSOR_PATTERN, { error: CURSOR_REFUSAL }),
  )
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
