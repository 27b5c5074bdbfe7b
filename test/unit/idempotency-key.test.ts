import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, parseIdempotencyKey } from "../../server/idempotency/idempotency-key.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";

describe("parseIdempotencyKey", () => {
  it.each([
    ["a plain key", "7f7c1d1e-6f0b-4a51-9b1e-2f4c9d2c1a10", "7f7c1d1e-6f0b-4a51-9b1e-2f4c9d2c1a10"],
    ["surrounding whitespace", "  order-42  ", "order-42"],
    ["inner spaces and punctuation", "pay order #42 (retry)!", "pay order #42 (retry)!"],
    ["a structured-field string", '"order-42"', "order-42"],
    ["an escaped quote", '"say \\"hi\\""', 'say "hi"'],
    ["an escaped backslash", '"a\\\\b"', "a\\b"],
    ["255 characters", "k".repeat(255), "k".repeat(255)],
    ["255 characters quoted", `"${"k".repeat(255)}"`, "k".repeat(255)],
    ["a single character", "x", "x"],
  ])("accepts %s", (_name, raw, key) => {
    expect(parseIdempotencyKey(raw)).toBe(key);
  });

  it.each([
    ["empty", ""],
    ["only whitespace", "   "],
    ["an empty structured-field string", '""'],
    ["256 characters", "k".repeat(256)],
    ["256 characters quoted", `"${"k".repeat(256)}"`],
    ["a control character", "order\u000142"],
    ["a tab inside", "order\t42"],
    ["DEL", "order\u007f42"],
    ["non-ASCII", "ordér-42"],
    ["an unescaped quote inside a structured-field string", '"a"b"'],
    ["an unknown escape", '"a\\nb"'],
    ["a trailing lone backslash", '"abc\\"'],
  ])("rejects %s with null", (_name, raw) => {
    expect(parseIdempotencyKey(raw)).toBeNull();
  });
});

describe("the contract's IdempotencyKey schema", () => {
  const schema = (loadSpec() as unknown as { components: { schemas: Record<string, { pattern: string; maxLength: number }> } }).components
    .schemas.IdempotencyKey as { pattern: string; maxLength: number };
  const pattern = new RegExp(schema.pattern, "u");
  const byContract = (value: string) => value.length >= 1 && value.length <= schema.maxLength && pattern.test(value);
  // Header values arrive without leading or trailing whitespace (HTTP drops it), so those are left out.
  const unit = fc.oneof(
    fc.constantFrom('"', "\\", " ", "a", "~", "!", "#", "\t", "\u0001", "\u007f", "é", "😀"),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
  );
  const headerValue = fc
    .oneof(
      fc.array(unit, { maxLength: 8 }).map((u) => u.join("")),
      fc.array(unit, { maxLength: 8 }).map((u) => `"${u.join("")}"`),
      fc
        .tuple(fc.constantFrom("k", '"'), fc.integer({ min: 250, max: 260 }))
        .map(([c, n]) => (c === '"' ? `"${"k".repeat(n)}"` : c.repeat(n))),
    )
    .filter((v) => v === v.trim());

  it("accepts exactly the keys the server accepts (property, seeded)", () => {
    fc.assert(
      fc.property(headerValue, (value) => {
        expect(byContract(value), JSON.stringify(value)).toBe(parseIdempotencyKey(value) !== null);
      }),
      { seed: 20261127, numRuns: 3000 },
    );
  });

  it.each(['"a\\"b"', '"a\\\\b"', 'a"b', '"x', 'x"', '""', "k".repeat(255), `"${"k".repeat(255)}"`])("agrees on %s", (value) => {
    expect(byContract(value)).toBe(parseIdempotencyKey(value) !== null);
  });
});

describe("canonicalJson", () => {
  it.each([
    ["sorts object keys", { b: 1, a: 2 }, '{"a":2,"b":1}'],
    [
      "sorts nested keys, keeps array order",
      { z: [{ y: 1, x: 2 }, 3], a: { d: null, c: "s" } },
      '{"a":{"c":"s","d":null},"z":[{"x":2,"y":1},3]}',
    ],
    ["drops undefined members", { a: undefined, b: 1 }, '{"b":1}'],
    ["escapes strings", { 'q"': 'a"\\\n' }, '{"q\\"":"a\\"\\\\\\n"}'],
    ["null", null, "null"],
    ["a number", 1.5, "1.5"],
    ["an empty object", {}, "{}"],
    ["an empty array", [], "[]"],
    ["sorts by code unit, not locale", { b: 1, B: 2, a: 3 }, '{"B":2,"a":3,"b":1}'],
  ])("%s", (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it("is the same for the same content in any key order", () => {
    const a = { amount: "1.00", source: { iban: "DE89", bic: "COBADEFFXXX" }, tags: ["x", "y"] };
    const b = { tags: ["x", "y"], source: { bic: "COBADEFFXXX", iban: "DE89" }, amount: "1.00" };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson({ ...a, tags: ["y", "x"] })).not.toBe(canonicalJson(a));
  });
});
