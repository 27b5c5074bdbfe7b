// Shared pieces of the security suite (test/security): what the spec says about each operation (id references, list
// endpoints, scopes), the documented error shapes, ids that do not exist, and a snapshot of an organization's rows.
import { expect } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../server/errors/codes.ts";
import { randomBase62 } from "../../server/lib/ids.ts";
import { loadSpec, type OpenApiDocument } from "../../server/spec/load-spec.ts";
import { type SpecOperation, specOperations } from "./spec-requests.ts";
import type { api, TestServer } from "./test-server.ts";

type Json = Record<string, unknown>;
export type Response = Awaited<ReturnType<ReturnType<typeof api>>>;

export const doc: OpenApiDocument = loadSpec();
export const operations: SpecOperation[] = specOperations(doc);
export const byId = (operationId: string): SpecOperation => {
  const op = operations.find((o) => o.operation.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the spec`);
  return op;
};

function resolve(value: unknown): Json {
  let node = value as Json;
  while (node && typeof node.$ref === "string") {
    let target: unknown = doc;
    for (const part of (node.$ref as string).slice(2).split("/")) target = (target as Json)[part];
    node = target as Json;
  }
  return node;
}

/** Names (dotted for nested objects) of every request-body property ending in `Id`, across oneOf/anyOf/allOf shapes. */
function bodyIdProperties(schema: unknown, prefix = "", out = new Set<string>(), depth = 0): Set<string> {
  const node = resolve(schema);
  if (!node || typeof node !== "object" || depth > 4) return out;
  for (const key of ["oneOf", "anyOf", "allOf"])
    for (const sub of (node[key] ?? []) as unknown[]) bodyIdProperties(sub, prefix, out, depth + 1);
  for (const [name, value] of Object.entries((node.properties ?? {}) as Json)) {
    if (/Id$/.test(name)) out.add(prefix + name);
    const child = resolve(value);
    if (child?.type === "object" || child?.properties) bodyIdProperties(child, `${prefix}${name}.`, out, depth + 1);
  }
  return out;
}

/** Every place an operation takes an id: path parameters (`path:cardId`), query parameters and body properties whose
 * name ends in `Id` (`query:organizationId`, `body:custody.walletId`). */
export function idReferences(op: SpecOperation): string[] {
  const refs = op.parameters
    .filter((p) => p.in === "path" || (p.in === "query" && /Id$/.test(String(p.name))))
    .map((p) => `${String(p.in)}:${String(p.name)}`);
  const media = ((op.raw.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined;
  if (media) for (const name of bodyIdProperties(media.schema)) refs.push(`body:${name}`);
  return refs;
}

/** The scopes the spec defines: every `<resource>:<level>` its Scope schema's pattern admits. */
export function allScopes(): string[] {
  const pattern = String((doc.components as Json & { schemas: Record<string, Json> }).schemas.Scope?.pattern);
  const match = /^\^\(([^)]+)\):\(([^)]+)\)\$$/.exec(pattern);
  if (!match) throw new Error(`unexpected Scope pattern ${pattern}`);
  const [resources, levels] = [(match[1] as string).split("|"), (match[2] as string).split("|")];
  return resources.flatMap((r) => levels.map((l) => `${r}:${l}`));
}

/** A syntactically valid id with the same prefix and length that no one holds. */
export function unknownLike(id: string): string {
  const cut = id.lastIndexOf("_") + 1;
  return id.slice(0, cut) + randomBase62(id.length - cut);
}

/** The documented error shape of the path's surface: RFC 9457 problem+json with `code` on /api/v2, `{error, code,
 * requestId}` with the code's v1 name (server/errors/codes.ts) on v1, metrics and admin. */
export function expectError(res: Response, status: number, code: ErrorCode, path?: string) {
  expect(res.status, res.text).toBe(status);
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toBeTruthy();
  if (res.json?.type !== undefined || res.headers.get("content-type")?.startsWith("application/problem+json")) {
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ type: `https://docs.coinplane.dev/errors/${code.toLowerCase()}`, status, code, requestId });
    if (path) expect(res.json.instance).toBe(path.split("?")[0]);
  } else {
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ error: expect.any(String), code: ERROR_CODES[code].v1, requestId });
    expect(Object.keys(res.json).filter((k) => k !== "errors")).toEqual(["error", "code", "requestId"]);
  }
}

/** Every row of every table that has an `organizationId` column, for one organization (and, where a table has the
 * column, one environment; rows of tables with an `apiKeyId` column made by `exceptApiKeyId` — a key's or a member's id, or several — left out): compare before
 * and after to prove that a set of refused requests changed nothing of that organization's. */
export async function organizationSnapshot(
  server: TestServer,
  organizationId: string,
  options: { environment?: string; exceptApiKeyId?: string | string[] } = {},
): Promise<Record<string, string[]>> {
  const prisma = server.db.prisma;
  const columns = await prisma.$queryRawUnsafe<Array<{ table_name: string; column_name: string }>>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()
     AND column_name IN ('organizationId', 'environment', 'apiKeyId')`,
  );
  const has = (table: string, column: string) => columns.some((c) => c.table_name === table && c.column_name === column);
  const tables = [...new Set(columns.filter((c) => c.column_name === "organizationId").map((c) => c.table_name))].sort();
  const snapshot: Record<string, string[]> = {};
  for (const table of tables) {
    const conditions = [`"organizationId" = $1`];
    const values: unknown[] = [organizationId];
    if (options.environment && has(table, "environment")) {
      values.push(options.environment);
      conditions.push(`"environment"::text = $${values.length}`);
    }
    if (options.exceptApiKeyId && has(table, "apiKeyId")) {
      values.push([options.exceptApiKeyId].flat());
      conditions.push(`("apiKeyId" IS NULL OR NOT ("apiKeyId" = ANY($${values.length})))`);
    }
    const rows = await prisma.$queryRawUnsafe<Json[]>(`SELECT * FROM "${table}" WHERE ${conditions.join(" AND ")}`, ...values);
    snapshot[table] = rows.map((row) => JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? v.toString() : v))).sort();
  }
  return snapshot;
}
