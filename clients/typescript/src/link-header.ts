/**
 * The next page of a listing: `Link: <…>; rel="next"` (RFC 8288) names its URL, whose `cursor` the client sends
 * back with its own base URL, so that every page goes through the same address, key and retries.
 */

/** The `cursor` of the next page, or undefined on the last page (an answer without a `rel="next"` link). */
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
