import { describe, expect, it } from "vitest";
import { inJsonbKeyOrder } from "../../server/lib/json/jsonb-key-order.ts";

describe("inJsonbKeyOrder", () => {
  it.each([
    ["shorter keys first, then byte order", { bb: 1, a: 2, c: 3, ab: 4 }, ["a", "c", "ab", "bb"]],
    ["upper case before lower case (bytes)", { b: 1, B: 2, a: 3 }, ["B", "a", "b"]],
    ["multi-byte characters by their UTF-8 bytes", { é: 1, z: 2, zz: 3 }, ["z", "é", "zz"]],
  ])("%s", (_name, input, keys) => {
    expect(Object.keys(inJsonbKeyOrder(input))).toEqual(keys);
  });

  it("orders nested objects and objects inside arrays, keeps array order and scalars", () => {
    const out = inJsonbKeyOrder({ list: [{ yy: 1, x: 2 }, 3], nested: { bb: null, a: "s" } });
    expect(JSON.stringify(out)).toBe('{"list":[{"x":2,"yy":1},3],"nested":{"a":"s","bb":null}}');
  });
});
