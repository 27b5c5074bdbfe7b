// List operations return a PagePromise: await it for the first page, or iterate it (`for await`) for every item across
// pages — v1 limit/offset lists and v2 cursor lists (`startingAfter` ← `nextCursor` while `hasMore`). Which query
// parameters and response fields page a list comes from the spec's `x-pagination` (through the generated operation table).

/** A promise of the first page that is also an async iterable over every item of every page. */
export type PagePromise<Page, Item> = Promise<Page> & AsyncIterable<Item>;

/** A list's `x-pagination`: the response field holding the items, and the parameters and fields that lead to the next
 * page (`param` is the cursor query parameter). */
export type Pagination =
  | { readonly kind: "offset"; readonly items: string; readonly offsetParam: string; readonly total?: string }
  | { readonly kind: "cursor"; readonly items: string; readonly param: string; readonly nextCursor: string; readonly hasMore?: string };

type Query = Record<string, unknown>;
type AnyPage = Record<string, unknown>;

/** The items of a page (none when the declared field is not an array). */
export function pageItems(pagination: Pagination, page: AnyPage): unknown[] {
  const items = page?.[pagination.items];
  return Array.isArray(items) ? items : [];
}

/** The query of the page after `page`, or undefined when `page` is the last one. */
export function nextPageQuery(pagination: Pagination, query: Query, page: AnyPage): Query | undefined {
  const data = pageItems(pagination, page);
  if (data.length === 0) return undefined;
  if (pagination.kind === "offset") {
    const offset = Number(query[pagination.offsetParam] ?? 0) + data.length;
    const total = pagination.total === undefined ? undefined : page[pagination.total];
    if (typeof total === "number" && offset >= total) return undefined;
    return { ...query, [pagination.offsetParam]: offset };
  }
  const cursor = page[pagination.nextCursor];
  if ((pagination.hasMore !== undefined && !page[pagination.hasMore]) || !cursor) return undefined;
  return { ...query, [pagination.param]: cursor };
}

export function pagePromise<Page, Item>(
  pagination: Pagination,
  query: Query,
  fetchPage: (query: Query) => Promise<Page>,
): PagePromise<Page, Item> {
  const first = fetchPage(query);
  const iterate = async function* (): AsyncGenerator<Item> {
    let page = await first;
    let current = query;
    for (;;) {
      for (const item of pageItems(pagination, page as AnyPage) as Item[]) yield item;
      const next = nextPageQuery(pagination, current, page as AnyPage);
      if (!next) return;
      current = next;
      page = await fetchPage(next);
    }
  };
  return Object.assign(first, { [Symbol.asyncIterator]: iterate }) as PagePromise<Page, Item>;
}
