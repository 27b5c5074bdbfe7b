// The SDK client's operation table (sdk/src/generated/operations.ts): per operationId what a call needs to be built
// (method, path template, surface, auth scheme, Idempotency-Key rule, body and query) and how it pages.
import { clientPagination, type ListDeclaration } from "./pagination.ts";
import { type Doc, deref, type Json, type SpecOperation } from "./spec.ts";

export type OperationEntry = Json;

export function operationEntry(doc: Doc, { op, raw, parameters }: SpecOperation, list: ListDeclaration | null): OperationEntry {
  const requestBody = raw.requestBody ? deref(doc, raw.requestBody) : undefined;
  return {
    method: op.method,
    path: op.pathTemplate,
    surface: op.surface,
    security: op.security,
    idempotency: op.idempotency,
    body: requestBody ? (requestBody.required ? "required" : "optional") : "none",
    query: parameters.filter((p) => p.in === "query").map((p) => String(p.name)),
    pagination: clientPagination(list),
  };
}

export function operationTable(
  doc: Doc,
  ops: SpecOperation[],
  lists: ReadonlyMap<string, ListDeclaration>,
): Record<string, OperationEntry> {
  const table: Record<string, OperationEntry> = {};
  for (const o of ops) table[o.op.operationId] = operationEntry(doc, o, lists.get(o.op.operationId) ?? null);
  return table;
}
