type Item = Record<string, unknown>;

/** What a Query or Scan page carries that paging needs. */
interface Page {
  readonly Items?: Item[] | undefined;
  readonly LastEvaluatedKey?: Item | undefined;
}

/**
 * Reads a Query or Scan page after page until `wanted` items (every item when absent) or the last page. A
 * page can hold fewer items than asked for (DynamoDB stops a page at 1 MB), so each asks for what is missing.
 */
export async function readPages(
  read: (page: { readonly startKey: Item | undefined; readonly limit: number | undefined }) => Promise<Page>,
  { wanted, startKey: first }: { readonly wanted?: number; readonly startKey?: Item } = {},
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey = first;
  do {
    const page = await read({ startKey, limit: wanted === undefined ? undefined : wanted - items.length });
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (wanted === undefined || items.length < wanted));
  return items;
}
