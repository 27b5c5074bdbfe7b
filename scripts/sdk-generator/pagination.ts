// How a list operation pages, read only from its `x-pagination` extension (documented in openapi/openapi.yaml's info):
//   { style: offset, items, offsetParam, limitParam?, total? }
//   { style: cursor, items, cursorParam, nextCursor, limitParam?, hasMore?, offsetParam?, total? }
//     (offsetParam: a list that kept an offset when it gained cursors; it applies to the first page only)
//   { style: none,   items, total? }                 (the whole collection in one response)
// Parameter names must be query parameters of the operation and field names properties of its success response, `items`
// an array; anything else fails the generation, so a typo in the spec cannot ship an SDK that pages on a missing field.
import type { MockPagination } from "../../sdk/src/mock/types.ts";
import { type Doc, deref, type Json, objectProperties, type SpecOperation, schemaName, successSchema } from "./spec.ts";

/** The generated shape is the one the SDK reads (`kind` and `param` keep the names the published operation table always
 * had); typing it from the SDK keeps generator and reader in step. */
export type ListPagination = MockPagination;
export type OffsetPagination = Extract<ListPagination, { kind: "offset" }>;
export type CursorPagination = Extract<ListPagination, { kind: "cursor" }>;

/** A list operation: the component schema of its items (if named) and how it pages. */
export interface ListDeclaration {
  itemSchema: string | null;
  pagination: ListPagination;
}

export class PaginationError extends Error {
  constructor(operationId: string, problem: string) {
    super(`x-pagination of ${operationId}: ${problem}`);
    this.name = "PaginationError";
  }
}

type Style = ListPagination["kind"];

/** Per style: which keys it requires and which it allows, and whether each names a query parameter or a response field. */
const KEYS: Record<Style, { required: string[]; optional: string[] }> = {
  offset: { required: ["items", "offsetParam"], optional: ["limitParam", "total"] },
  cursor: { required: ["items", "cursorParam", "nextCursor"], optional: ["limitParam", "hasMore", "offsetParam", "total"] },
  none: { required: ["items"], optional: ["total"] },
};
const PARAM_KEYS = new Set(["offsetParam", "cursorParam", "limitParam"]);

/** The operation's list declaration, or null when it declares no `x-pagination`. Throws PaginationError when malformed. */
export function readPagination(doc: Doc, { op, raw, parameters }: SpecOperation): ListDeclaration | null {
  const declared = raw["x-pagination"];
  if (declared === undefined) return null;
  const fail = (problem: string): never => {
    throw new PaginationError(op.operationId, problem);
  };
  if (!declared || typeof declared !== "object" || Array.isArray(declared)) return fail("must be an object");
  const decl = declared as Json;
  const style = decl.style as Style;
  if (typeof style !== "string" || !Object.hasOwn(KEYS, style))
    return fail(`style must be one of offset, cursor, none (got ${JSON.stringify(decl.style)})`);
  const { required, optional } = KEYS[style];
  for (const key of required) if (decl[key] === undefined) fail(`style ${style} requires "${key}"`);
  for (const [key, value] of Object.entries(decl)) {
    if (key === "style") continue;
    if (!required.includes(key) && !optional.includes(key))
      fail(`"${key}" is not a key of style ${style} (allowed: ${[...required, ...optional].join(", ")})`);
    if (typeof value !== "string" || value === "") fail(`"${key}" must be a non-empty string`);
  }

  const queryParams = new Set(parameters.filter((p) => p.in === "query").map((p) => String(p.name)));
  const schema = successSchema(doc, raw);
  if (schema === undefined) fail("the operation has no JSON success response to page through");
  const fields = objectProperties(doc, schema).properties;
  for (const [key, value] of Object.entries(decl)) {
    if (key === "style") continue;
    const name = value as string;
    if (PARAM_KEYS.has(key)) {
      if (!queryParams.has(name)) fail(`${key} "${name}" is not a query parameter of the operation`);
    } else if (!Object.hasOwn(fields, name)) fail(`${key} "${name}" is not a property of the success response`);
  }
  const items = deref(doc, fields[decl.items as string]);
  if (items.type !== "array") fail(`items "${decl.items}" is not an array property of the success response`);

  return { itemSchema: schemaName(items.items) ?? null, pagination: toPagination(style, decl as Record<string, string>) };
}

function toPagination(style: Style, d: Record<string, string>): ListPagination {
  const optional = (key: string) => (d[key] === undefined ? {} : { [key]: d[key] });
  if (style === "offset") {
    return { kind: "offset", items: d.items!, offsetParam: d.offsetParam!, ...optional("limitParam"), ...optional("total") };
  }
  if (style === "cursor") {
    return {
      kind: "cursor",
      param: d.cursorParam!,
      items: d.items!,
      nextCursor: d.nextCursor!,
      ...optional("limitParam"),
      ...optional("hasMore"),
      ...optional("offsetParam"),
      ...optional("total"),
    };
  }
  return { kind: "none", items: d.items!, ...optional("total") };
}

/** What the SDK client pages with: nothing for a list returned whole (it is an ordinary call). */
export function clientPagination(list: ListDeclaration | null): OffsetPagination | CursorPagination | null {
  return list && list.pagination.kind !== "none" ? list.pagination : null;
}
