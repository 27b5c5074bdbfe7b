// A list answered from the mock's state: the resources created on a collection (newest first, as the API lists them),
// paged as the operation's `x-pagination` says (offset or cursor). Other lists keep their documented example.
import type { MockState } from "./mock-state.ts";
import type { MockData, MockOperationSpec } from "./types.ts";

type Json = Record<string, unknown>;

export function listPage(data: MockData, state: MockState, op: MockOperationSpec, envelope: Json, url: URL): Json {
  const itemSchema = op.list?.itemSchema;
  const store = itemSchema ? data.schemas[itemSchema]?.store : undefined;
  const pagination = op.list?.pagination;
  const hasPathParams = op.params.some((p) => p.in === "path");
  if (!itemSchema || !store || !data.schemas[store]?.listed || hasPathParams || !pagination) return envelope;
  const items = state.newestFirst(store).map((s) => state.project(s.value, itemSchema));
  const setIfPresent = (field: string | undefined, value: unknown) => {
    if (field !== undefined && field in envelope) envelope[field] = value;
  };
  if (pagination.kind === "none") {
    envelope[pagination.items] = items;
    setIfPresent(pagination.total, items.length);
    return envelope;
  }
  const limitParam = op.params.find((p) => p.name === pagination.limitParam);
  const limit = Number((limitParam && url.searchParams.get(limitParam.name)) ?? limitParam?.schema.default ?? items.length);
  if (pagination.kind === "offset") {
    const offset = Number(url.searchParams.get(pagination.offsetParam) ?? 0);
    envelope[pagination.items] = items.slice(offset, offset + limit);
    setIfPresent(pagination.total, items.length);
    // The page's echo of its size and position (v1 lists carry both under the parameters' names).
    setIfPresent(pagination.limitParam, limit);
    setIfPresent(pagination.offsetParam, offset);
    return envelope;
  }
  const cursor = url.searchParams.get(pagination.param);
  const idField = data.schemas[store]?.idField ?? "id";
  const start = cursor ? items.findIndex((i) => i[idField] === cursor) + 1 : 0;
  const page = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  envelope[pagination.items] = page;
  if (pagination.hasMore !== undefined) envelope[pagination.hasMore] = hasMore;
  envelope[pagination.nextCursor] = hasMore ? (page[page.length - 1]?.[idField] ?? null) : null;
  return envelope;
}
