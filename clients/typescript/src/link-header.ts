/**
 * The `cursor` of the next page from `Link: <…>; rel="next"` (RFC 8288), undefined on the last page. Only the
 * cursor is taken: every page goes through the client's own base URL, key and retries.
 */
export function nextCursor(link: string | null, requestUrl: string): string | undefined {
  if (link === null) return undefined;
  for (const [, target, parameters] of link.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(parameters ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (target === undefined || !relations.includes('next')) continue;
    const cursor = new URL(target, requestUrl).searchParams.get('cursor');
    // The documents promise a cursor in every next link: stopping here would end a listing early without a word.
    if (cursor === null) throw new Error(`listPets: the next page's link has no cursor: ${link}`);
    return cursor;
  }
  return undefined;
}
