// List operations return a PagePromise: await it for the first page, or iterate it (`for await`) for every item across
// pages — v1 limit/offset lists and v2 cursor lists (`startingAfter` ← `nextCursor` while `hasMore`).

/** A promise of the first page that is also an async iterable over every item of every page. */
export type PagePromise<Page, Item> = Promise<Page> & AsyncIterable<Item>;

export type Pagination = { readonly kind: "offset" } | { readonly kind: "cursor"; readonly param: string };

type Query = Record<string, unknown>;
type AnyPage = { data?: unknown[]; count?: number; offset?: number; hasMore?: boolean; nextCursor?: string | null };

/** The query of the page after `page`, or undefined when `page` is the last one. */
export function nextPageQuery(pagination: Pagination, query: Query, page: AnyPage): Query | undefined {
  const data = Array.isArray(page.data) ? page.data : [];
  if (data.length === 0) return undefined;
  if (pagination.kind === "offset") {
    const offset = (typeof page.offset === "number" ? page.offset : Number(query.offset ?? 0)) + data.length;
    if (typeof page.count === "number" && offset >= page.count) return undefined;
    return { ...query, offset };
  }
  if (!page.hasMore || !page.nextCursor) return undefined;
  return { ...query, [pagination.param]: page.nextCursor };
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
      for (const item of ((page as AnyPage).data ?? []) as Item[]) yield item;
      const next = nextPageQuery(pagination, current, page as AnyPage);
      if (!next) return;
      current = next;
      page = await fetchPage(next);
    }
  };
  return Object.assign(first, { [Symbol.asyncIterator]: iterate }) as PagePromise<Page, Item>;
}
