import * as z from 'zod/mini';
import type { PageCursor } from '#data/repositories/pet-repository';
import { ApiError } from '#contract/errors';
import { PositiveSafeInteger } from '#contract/schemas/common';
import { CURSOR_PATTERN, CURSOR_REFUSAL } from '#contract/schemas/list-pets-query';
import { PetStatus } from '#contract/schemas/pet-status';

/** A listing's position on the wire: opaque base64url JSON with a version and its filter, free to change. */
const CursorPayload = z.strictObject({
  v: z.literal(1),
  id: PositiveSafeInteger,
  s: z.optional(PetStatus),
});

export function encodeCursor(cursor: PageCursor): string {
  const payload: z.infer<typeof CursorPayload> = { v: 1, id: cursor.lastId, ...(cursor.status ? { s: cursor.status } : {}) };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

const invalidCursor = (): ApiError => new ApiError(400, 'invalid_request', `query parameter 'cursor' ${CURSOR_REFUSAL}`);

/** A cursor only continues the listing it came from: a different `status` filter is refused. */
export function decodeCursor(text: string, status: PetStatus | undefined): PageCursor {
  // The query schema checked this already; the decoder does not rely on being called after it.
  if (!CURSOR_PATTERN.test(text)) throw invalidCursor();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = z.safeParse(CursorPayload, json);
  if (!parsed.success || parsed.data.s !== status) throw invalidCursor();
  // Re-encoding must give the same text, so padding tricks and trailing bits are refused too.
  const cursor: PageCursor = { lastId: parsed.data.id, ...(parsed.data.s ? { status: parsed.data.s } : {}) };
  if (encodeCursor(cursor) !== text) throw invalidCursor();
  return cursor;
}
