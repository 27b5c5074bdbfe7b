// List operations return a PagePromise: await it for the first page (`.withResponse()` for its HTTP facts), iterate it
// (`for await`) for every item across pages, or `toArray({ limit })` to collect items up to a cap — v1 limit/offset
// lists and v2 cursor lists (`startingAfter` ← `nextCursor` while `hasMore`). Which query parameters and response
// fields page a list comes from the spec's `x-pagination` (through the generated operation table).
import { ApiPromise, type ParsedResponse } from "./api-promise.ts";

/** A list's `x-pagination`: the response field holding the items, and the parameters and fields that lead to the next
 * page (`param` is the cursor query parameter). */
export type Pagination =
  | { readonly kind: "offset"; readonly items: string; readonly offsetParam: string; readonly total?: string }
  | {
      readonly kind: "cursor";
      readonly items: string;
      readonly param: string;
      readonly nextCursor: string;
      readonly hasMore?: string;
      /** An offset parameter the list kept from before its cursors: it positions the first page only. */
      readonly offsetParam?: string;
      /** The property with the size of the whole (filtered) collection, where the list has one; paging does not need it. */
      readonly total?: string;
    };

/** How many items `toArray()` collects when no `limit` is given. */
export const DEFAULT_TO_ARRAY_LIMIT = 1000;

export interface ToArrayOptions {
  /** Collect at most this many items (a positive integer); pages beyond it are not fetched. Default 1000. */
  limit?: number;
}

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
  const next = { ...query, [pagination.param]: cursor };
  // The cursor says where the next page starts; an offset would skip items again (the API refuses the two together).
  if (pagination.offsetParam !== undefined) delete next[pagination.offsetParam];
  return next;
}

/** A promise of the first page (with `withResponse()`) that is also an async iterable over every item of every page. */
export class PagePromise<Page, Item> extends ApiPromise<Page> implements AsyncIterable<Item> {
  readonly #first: Promise<ParsedResponse<Page>>;
  readonly #pagination: Pagination;
  readonly #query: Query;
  readonly #fetchPage: (query: Query) => Promise<ParsedResponse<Page>>;

  /** Fetches the first page at once; later pages only while iterating. */
  constructor(pagination: Pagination, query: Query, fetchPage: (query: Query) => Promise<ParsedResponse<Page>>) {
    const first = fetchPage(query);
    super(first);
    this.#first = first;
    this.#pagination = pagination;
    this.#query = query;
    this.#fetchPage = fetchPage;
  }

  /** Every item of every page, fetching the next page when the current one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    let page = (await this.#first).data as AnyPage;
    let current = this.#query;
    for (;;) {
      for (const item of pageItems(this.#pagination, page) as Item[]) yield item;
      const next = nextPageQuery(this.#pagination, current, page);
      if (!next) return;
      current = next;
      page = (await this.#fetchPage(next)).data as AnyPage;
    }
  }

  /** The items across pages, at most `limit` of them (default 1000, so a forgotten limit cannot load a whole
   * collection): no page is fetched once the limit is reached. */
  async toArray(options: ToArrayOptions = {}): Promise<Item[]> {
    const limit = options.limit ?? DEFAULT_TO_ARRAY_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`toArray: limit must be a positive integer (got ${limit})`);
    const items: Item[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
