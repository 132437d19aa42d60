import { callerOf } from '#auth/require-caller';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { absoluteUrl } from '#http/absolute-url';
import { LIST_PETS } from '#contract/operations/list-pets';
import { decodeCursor, encodeCursor } from '#http/page-cursor';
import { petReader } from '#data/stores/pets';

const pets = petReader();

/** GET /v1/pets — a page of pets; the next page, if any, is announced in `Link: <…>; rel="next"`. */
export const handler = httpHandler(LIST_PETS, callerOf, async ({ query, event }) => {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.status);
  const page = await pets.list({ limit: query.limit, ...(query.status ? { status: query.status } : {}), ...(after ? { after } : {}) });
  if (!page.next) return jsonResponse(200, page.pets);
  const next = new URLSearchParams({ limit: String(query.limit) });
  if (query.status) next.set('status', query.status);
  next.set('cursor', encodeCursor(page.next));
  return jsonResponse(200, page.pets, { link: `<${absoluteUrl(event, event.rawPath, next)}>; rel="next"` });
});
