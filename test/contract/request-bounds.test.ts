// OWASP API4 (unrestricted resource consumption), request side: every string, array and integer a client can send — in
// a path, query or header parameter or anywhere in a request body — is bounded by the contract, so the validator refuses
// an oversized value before any code reads it. (.spectral.yaml leaves the OWASP limit rules to this test, because they
// also flag response schemas, which bound nothing.) "any JSON" fields (`input`, `policy`, `amount`, `metadata`, …) are
// the exception by the description; their size is bounded by the body limit and the nesting limit.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";

type Json = Record<string, unknown>;
const doc = loadSpec() as unknown as Json;

function resolve(node: unknown): Json {
  let value = node as Json;
  while (value && typeof value.$ref === "string") {
    value = (value.$ref as string)
      .slice(2)
      .split("/")
      .reduce<Json>((o, k) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, doc);
  }
  return value;
}

/** A pattern that cannot match more than a bounded number of characters (no `*`, `+` or open `{n,}`). */
const boundedPattern = (pattern: string) => /^\^.*\$$/.test(pattern) && !/(?<!\\)[*+]|\{\d+,\}/.test(pattern);
const isAnyJson = (schema: Json) => Object.keys(schema).every((k) => ["description", "example", "examples", "title"].includes(k));

function problems(schema: Json, where: string, seen: Set<unknown>): string[] {
  if (!schema || seen.has(schema)) return [];
  seen.add(schema);
  const out: string[] = [];
  const s = resolve(schema);
  if (isAnyJson(s)) return out;
  const types = new Set(Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : []);
  const fixed = s.enum !== undefined || s.const !== undefined;
  if (types.has("string") && !fixed && s.maxLength === undefined && !(typeof s.pattern === "string" && boundedPattern(s.pattern)))
    out.push(`${where}: string without maxLength, enum, const or bounded pattern`);
  if (types.has("array") && s.maxItems === undefined) out.push(`${where}: array without maxItems`);
  if ((types.has("integer") || types.has("number")) && !fixed && (s.maximum === undefined || s.minimum === undefined))
    out.push(`${where}: ${[...types].join("|")} without minimum and maximum`);
  if (types.has("object") && s.additionalProperties !== false && s.additionalProperties !== undefined && s.maxProperties === undefined)
    out.push(`${where}: open object without maxProperties`);
  for (const [name, child] of Object.entries((s.properties ?? {}) as Json)) out.push(...problems(child as Json, `${where}.${name}`, seen));
  if (s.items) out.push(...problems(s.items as Json, `${where}[]`, seen));
  if (s.additionalProperties && typeof s.additionalProperties === "object")
    out.push(...problems(s.additionalProperties as Json, `${where}.*`, seen));
  for (const key of ["oneOf", "anyOf", "allOf"])
    for (const [i, branch] of ((s[key] ?? []) as Json[]).entries()) out.push(...problems(branch, `${where}(${key}[${i}])`, seen));
  return out;
}

function requestProblems(): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, raw] of Object.entries(item as Json)) {
      const op = raw as Json;
      if (!op?.operationId) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const parameters = [...(((item as Json).parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map(resolve);
      for (const p of parameters) out.push(...problems(p.schema as Json, `${label} ${p.in} ${p.name}`, new Set()));
      const body = op.requestBody ? resolve(op.requestBody) : undefined;
      for (const media of Object.values((body?.content ?? {}) as Json))
        out.push(...problems((media as Json).schema as Json, `${label} body`, new Set()));
    }
  }
  return out;
}

describe("request bounds", () => {
  it("every request string, array, number and open object is bounded", () => {
    expect(requestProblems()).toEqual([]);
  });
});
