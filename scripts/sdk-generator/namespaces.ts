// The SDK's documented surface (sdk/src/generated/namespaces.ts): one interface per namespace of the operation map, one
// method per operation with its path parameters named as in the path, and JSDoc taken from the spec — the operation's
// summary and description, its method and path, the scopes it needs, each path parameter's description. Editors show
// it on hover and in completion; it is regenerated with the spec, so it cannot drift from it.
//
// The signatures mirror the SDK's `MethodArgs` (body for writes, else query; required as the spec says);
// test/sdk/namespaces.test.ts checks each is the same function type as `Method<operationId>`.
import { type Doc, deref, type Json, jsonContent, type SpecOperation, schemaName, successStatuses } from "./spec.ts";

/** operationId → [namespace, method]: the SDK's operation map (sdk/src/operation-map.ts). */
export type MethodMap = Readonly<Record<string, readonly [string, string]>>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSDoc block of `lines` (paragraphs separated by empty strings), indented; `*​/` in the text cannot end it. */
export function jsDoc(lines: string[], indent: string): string {
  const body = lines
    .flatMap((line) => line.replaceAll("*/", "*\\/").split("\n"))
    .map((line) => (line.trim() === "" ? `${indent} *` : `${indent} * ${line.trimEnd()}`));
  return `${indent}/**\n${body.join("\n")}\n${indent} */\n`;
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** `cardId` stays `cardId`; anything that is not an identifier becomes one (`card-id` → `card_id`). */
function parameterName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return IDENTIFIER.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** The documentation of one operation: summary, description, method and path, scopes, deprecation, parameters. */
function methodDoc(o: SpecOperation, params: Array<{ name: string; doc: string }>, input: { name: string; doc: string } | null): string[] {
  const { op, raw } = o;
  const lines: string[] = [];
  const summary = text(raw.summary);
  const description = text(raw.description);
  if (summary) lines.push(summary);
  if (description) lines.push(...(lines.length ? [""] : []), description);
  lines.push(...(lines.length ? [""] : []), `\`${op.method} ${op.pathTemplate}\` (operationId \`${op.operationId}\`).`);
  if (op.scopes.length > 0)
    lines.push(`Requires the scope${op.scopes.length > 1 ? "s" : ""} ${op.scopes.map((s) => `\`${s}\``).join(" and ")}.`);
  lines.push("");
  for (const p of params) lines.push(`@param ${p.name} - ${p.doc}`);
  if (input) lines.push(`@param ${input.name} - ${input.doc}`);
  lines.push("@param options - Per-request options: `idempotencyKey`, `headers`, `signal`, `timeoutMs`, `maxRetries`.");
  if (raw.deprecated === true) lines.push("@deprecated The spec marks this operation deprecated.");
  return lines;
}

/** The JSON request body's presence, as openapi-typescript types it (`RequestBody<K>` is never without JSON content). */
function jsonBody(doc: Doc, raw: Json): { required: boolean; description: string } | null {
  if (!raw.requestBody) return null;
  const body = deref(doc, raw.requestBody);
  const content = (body.content ?? {}) as Record<string, unknown>;
  if (!("application/json" in content)) return null;
  return { required: body.required === true, description: text(body.description) };
}

/** One method signature with its JSDoc. */
function methodSignature(doc: Doc, o: SpecOperation, method: string, indent: string): string {
  const { op, parameters } = o;
  const id = JSON.stringify(op.operationId);
  const byName = new Map(parameters.filter((p) => p.in === "path").map((p) => [String(p.name), p]));
  const pathNames = [...op.pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const params = pathNames.map((name) => ({
    name: parameterName(name),
    doc: text(byName.get(name)?.description) || `The \`${name}\` of the path.`,
  }));
  const args = params.map((p) => `${p.name}: string`);

  let input: { name: string; doc: string } | null = null;
  const body = jsonBody(doc, o.raw);
  const query = parameters.filter((p) => p.in === "query");
  if (body) {
    input = { name: "body", doc: body.description || "The JSON request body." };
    args.push(`body${body.required ? "" : "?"}: RequestBody<${id}>`);
  } else if (query.length > 0) {
    const names = query.map((p) => `\`${String(p.name)}\``).join(", ");
    input = { name: "query", doc: `Query parameters: ${names}.` };
    args.push(`query${query.some((p) => p.required === true) ? "" : "?"}: QueryParams<${id}>`);
  }
  args.push("options?: RequestOptions");
  return `${jsDoc(methodDoc(o, params, input), indent)}${indent}${method}(${args.join(", ")}): MethodResult<${id}>;\n`;
}

/** sdk/src/generated/namespaces.ts: `Namespaces` (what `Coinplane` extends) and one interface per namespace. */
export function namespacesModule(doc: Doc, ops: SpecOperation[], methods: MethodMap, header: string): string {
  const byId = new Map(ops.map((o) => [o.op.operationId, o]));
  const namespaces = new Map<string, Array<[string, SpecOperation]>>();
  for (const [operationId, [namespace, method]] of Object.entries(methods)) {
    const o = byId.get(operationId);
    if (!o) throw new Error(`operation map: ${operationId} is not an operation of the spec`);
    if (!IDENTIFIER.test(namespace) || !IDENTIFIER.test(method))
      throw new Error(`operation map: ${namespace}.${method} is not a valid name`);
    if (!namespaces.has(namespace)) namespaces.set(namespace, []);
    namespaces.get(namespace)?.push([method, o]);
  }
  const tagDescriptions = new Map(((doc.tags ?? []) as Json[]).map((t) => [String(t.name), text(t.description)]));

  let out = `${header}import type { MethodResult, QueryParams, RequestBody, RequestOptions } from "../types.ts";\n`;
  const members: string[] = [];
  for (const [namespace, entries] of namespaces) {
    const name = `${pascal(namespace)}Namespace`;
    const tags = [...new Set(entries.flatMap(([, o]) => ((o.raw.tags ?? []) as string[]).map(String)))];
    const about = tags.map((t) => tagDescriptions.get(t)).filter((d): d is string => Boolean(d));
    out += `\n${jsDoc([`\`coinplane.${namespace}\`${about.length ? `: ${about.join(" ")}` : ""}`], "")}export interface ${name} {\n`;
    out += entries.map(([method, o]) => methodSignature(doc, o, method, "  ")).join("");
    out += "}\n";
    members.push(
      `${jsDoc([`\`coinplane.${namespace}\`${about.length ? `: ${about.join(" ")}` : ""}`], "  ")}  readonly ${namespace}: ${name};\n`,
    );
  }
  out += `\n/** \`coinplane.<namespace>.<method>\` for every entry of the operation map (sdk/src/operation-map.ts). */\n`;
  out += `export interface Namespaces {\n${members.join("")}}\n`;
  return out;
}

/** Per component schema, the SDK methods that take it as their body or return it (for the schema's documentation). */
function schemaUsage(doc: Doc, ops: SpecOperation[], methods: MethodMap): Map<string, { takes: string[]; returns: string[] }> {
  const usage = new Map<string, { takes: string[]; returns: string[] }>();
  const entry = (name: string) => {
    if (!usage.has(name)) usage.set(name, { takes: [], returns: [] });
    return usage.get(name) as { takes: string[]; returns: string[] };
  };
  for (const { op, raw } of ops) {
    const mapped = methods[op.operationId];
    if (!mapped) continue;
    const method = `\`coinplane.${mapped[0]}.${mapped[1]}\``;
    const body = raw.requestBody ? schemaName(jsonContent(doc, raw.requestBody)?.media.schema) : undefined;
    if (body) entry(body).takes.push(method);
    const returned = new Set<string>();
    for (const status of successStatuses(raw)) {
      const name = schemaName(jsonContent(doc, (raw.responses as Json)[String(status)])?.media.schema);
      if (name) returned.add(name);
    }
    for (const name of returned) entry(name).returns.push(method);
  }
  return usage;
}

/** sdk/src/generated/schemas.ts: a named alias per component schema, documented with its title and description and
 * the methods that take or return it (`Schemas.Wallet` instead of `components["schemas"]["Wallet"]`). */
export function schemasModule(doc: Doc, ops: SpecOperation[], methods: MethodMap, header: string): string {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const usage = schemaUsage(doc, ops, methods);
  let out = `${header}import type { components } from "./openapi.ts";\n`;
  for (const [name, schema] of Object.entries(schemas)) {
    if (!IDENTIFIER.test(name)) continue; // only reachable as components["schemas"][name]
    const lines = [text(schema.title), text(schema.description)].filter(Boolean);
    const used = usage.get(name);
    if (used?.takes.length) lines.push(`${lines.length ? "\n" : ""}Request body of ${used.takes.join(", ")}.`);
    if (used?.returns.length) lines.push(`${lines.length && !used.takes.length ? "\n" : ""}Returned by ${used.returns.join(", ")}.`);
    if (schema.deprecated === true) lines.push("@deprecated The spec marks this schema deprecated.");
    out += `\n${lines.length ? jsDoc(lines, "") : ""}export type ${name} = components["schemas"][${JSON.stringify(name)}];\n`;
  }
  return out;
}
