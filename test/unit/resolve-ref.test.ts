// The one `$ref` resolver: JSON-pointer unescaping, chains, and loud failures on refs that cannot be right.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { deref, MAX_REF_CHAIN, refTarget, unescapePointerToken } from "../../server/spec/resolve-ref.ts";

const doc = {
  components: {
    schemas: {
      Money: { type: "string" },
      Amount: { $ref: "#/components/schemas/Money" },
      Total: { $ref: "#/components/schemas/Amount" },
      "a/b": { type: "integer" },
      "x~y": { type: "boolean" },
      Loop: { $ref: "#/components/schemas/Loop" },
      Dangling: { $ref: "#/components/schemas/Nope" },
    },
    parameters: { limit: { name: "limit", in: "query", schema: { $ref: "#/components/schemas/a~1b" } } },
  },
  tags: [{ name: "first" }, { name: "second" }],
};

describe("unescapePointerToken", () => {
  it.each([
    ["plain", "plain"],
    ["a~1b", "a/b"],
    ["x~0y", "x~y"],
    // ~1 first, then ~0: "~01" is the literal "~1", not "/".
    ["~01", "~1"],
    ["~0~1", "~/"],
  ])("%s → %s", (token, expected) => expect(unescapePointerToken(token)).toBe(expected));
});

describe("refTarget", () => {
  it.each([
    ["#/components/schemas/Money", { type: "string" }],
    ["#/components/schemas/a~1b", { type: "integer" }],
    ["#/components/schemas/x~0y", { type: "boolean" }],
    ["#/tags/1", { name: "second" }],
    // One hop only: refTarget names the node, deref follows the chain.
    ["#/components/schemas/Amount", { $ref: "#/components/schemas/Money" }],
  ])("%s", (ref, expected) => expect(refTarget(doc, ref)).toEqual(expected));

  it("# is the whole document", () => expect(refTarget(doc, "#")).toBe(doc));

  it.each([
    ["#/components/schemas/Nope", /names nothing/],
    ["#/components/schemas/Money/type/length", /names nothing/],
    ["#/tags/7", /names nothing/],
    ["#/components/schemas/toString", /names nothing/],
    ["other.yaml#/components/schemas/Money", /Only local/],
    ["components/schemas/Money", /Only local/],
  ])("%s throws", (ref, message) => expect(() => refTarget(doc, ref)).toThrow(message));
});

describe("deref", () => {
  it("returns a node without $ref as it is", () => {
    const node = { type: "object" };
    expect(deref(doc, node)).toBe(node);
  });

  it("follows a chain to its end", () => {
    expect(deref(doc, { $ref: "#/components/schemas/Total" })).toEqual({ type: "string" });
  });

  it("resolves an escaped ref inside a resolved node", () => {
    const param = deref(doc, { $ref: "#/components/parameters/limit" });
    expect(deref(doc, param.schema)).toEqual({ type: "integer" });
  });

  it.each([undefined, null])("reads an absent node (%s) as {}", (node) => expect(deref(doc, node)).toEqual({}));

  it("throws on a cycle instead of looping", () => {
    expect(() => deref(doc, { $ref: "#/components/schemas/Loop" })).toThrow(new RegExp(`longer than ${MAX_REF_CHAIN}`));
  });

  it("throws on a dangling ref", () => {
    expect(() => deref(doc, { $ref: "#/components/schemas/Dangling" })).toThrow(/Nope/);
  });

  it("resolves every $ref in the bundled spec", () => {
    const spec = loadSpec();
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== "object") return;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === "string") refs.push(ref);
      for (const child of Object.values(node)) walk(child);
    };
    walk(spec);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) expect(deref(spec, { $ref: ref }), ref).toBeTypeOf("object");
  });
});
