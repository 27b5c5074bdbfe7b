// A list answered from the mock's state: the resources created on a collection, newest first by `createdAt` as the API
// lists them, filtered and paged as the operation's parameters and `x-pagination` say (offset or cursor). A query
// parameter named like a property of the items keeps the items whose property equals one of its values (`status`,
// `walletId`, `programmeId`, `stage`…); `createdAfter` / `createdBefore` are exclusive bounds on `createdAt`. A cursor
// that is not an item of the list answers 400 at `/query/<cursor>`, as the API does. Other lists keep their documented
// example.

import type { MockState } from "./mock-state.ts";
import type { FieldError } from "./request-validation.ts";
import type { MockData, MockOperationSpec, MockPagination } from "./types.ts";

type Json = Record<string, unknown>;

export type ListAnswer = { envelope: Json } | { problem: FieldError };

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? "an" : "a");

/** Newest first by `createdAt` (items without one keep the store's order, newest first; so do items of one instant). */
function byCreatedAt(items: Json[]): Json[] {
  const time = (item: Json) => (typeof item.createdAt === "string" ? Date.parse(item.createdAt) : Number.NaN);
  return [...items].sort((a, b) => {
    const [ta, tb] = [time(a), time(b)];
    return Number.isNaN(ta) || Number.isNaN(tb) ? 0 : tb - ta;
  });
}

/** The items the list's filters keep. */
function filtered(items: Json[], op: MockOperationSpec, pagination: MockPagination, properties: string[], url: URL): Json[] {
  const paging = new Set<string | undefined>(
    pagination.kind === "none" ? [] : [pagination.limitParam, pagination.kind === "offset" ? pagination.offsetParam : pagination.param],
  );
  if (pagination.kind === "cursor") paging.add(pagination.offsetParam);
  let kept = items;
  for (const param of op.params) {
    if (param.in !== "query" || paging.has(param.name)) continue;
    const wanted = url.searchParams.getAll(param.name);
    if (wanted.length === 0) continue;
    const bound = Date.parse(wanted[0] as string);
    if (param.name === "createdAfter") kept = kept.filter((i) => Date.parse(String(i.createdAt)) > bound);
    else if (param.name === "createdBefore") kept = kept.filter((i) => Date.parse(String(i.createdAt)) < bound);
    else if (properties.includes(param.name)) kept = kept.filter((i) => wanted.includes(String(i[param.name])));
  }
  return kept;
}

export function listPage(data: MockData, state: MockState, op: MockOperationSpec, envelope: Json, url: URL): ListAnswer {
  const itemSchema = op.list?.itemSchema;
  const store = itemSchema ? data.schemas[itemSchema]?.store : undefined;
  const pagination = op.list?.pagination;
  const hasPathParams = op.params.some((p) => p.in === "path");
  if (!itemSchema || !store || !data.schemas[store]?.listed || hasPathParams || !pagination) return { envelope };
  const projected = state.newestFirst(store).map((s) => state.project(s.value, itemSchema));
  const items = filtered(byCreatedAt(projected), op, pagination, data.schemas[itemSchema]?.properties ?? [], url);
  const setIfPresent = (field: string | undefined, value: unknown) => {
    if (field !== undefined && field in envelope) envelope[field] = value;
  };
  if (pagination.kind === "none") {
    envelope[pagination.items] = items;
    setIfPresent(pagination.total, items.length);
    return { envelope };
  }
  const limitParam = op.params.find((p) => p.name === pagination.limitParam);
  const limit = Number((limitParam && url.searchParams.get(limitParam.name)) ?? limitParam?.schema.default ?? items.length);
  // The page's echo of its size (and position, where the list has one: v1 lists carry both under the parameters' names).
  setIfPresent(pagination.limitParam, limit);
  setIfPresent(pagination.total, items.length);
  if (pagination.kind === "offset") {
    const offset = Number(url.searchParams.get(pagination.offsetParam) ?? 0);
    envelope[pagination.items] = items.slice(offset, offset + limit);
    setIfPresent(pagination.offsetParam, offset);
    return { envelope };
  }
  const cursor = url.searchParams.get(pagination.param);
  const offset = pagination.offsetParam ? Number(url.searchParams.get(pagination.offsetParam) ?? 0) : 0;
  setIfPresent(pagination.offsetParam, offset);
  if (cursor !== null && offset > 0) {
    return {
      problem: {
        path: `/query/${pagination.offsetParam}`,
        message: `cannot be combined with ${pagination.param} (the cursor already says where the page starts)`,
      },
    };
  }
  const idField = data.schemas[store]?.idField ?? "id";
  let start = offset;
  if (cursor !== null) {
    // Looked up among all of the list's items, whatever the filters (they may change between pages).
    const all = byCreatedAt(projected);
    const at = all.findIndex((i) => i[idField] === cursor);
    const noun = (data.schemas[store]?.noun ?? store).toLowerCase();
    if (at < 0)
      return {
        problem: { path: `/query/${pagination.param}`, message: `is not ${article(noun)} ${noun} of this organization and environment` },
      };
    const after = new Set(all.slice(at + 1));
    start = items.findIndex((i) => after.has(i));
    if (start < 0) start = items.length;
  }
  const page = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  envelope[pagination.items] = page;
  if (pagination.hasMore !== undefined) envelope[pagination.hasMore] = hasMore;
  envelope[pagination.nextCursor] = hasMore ? (page[page.length - 1]?.[idField] ?? null) : null;
  return { envelope };
}
