// The one `$ref` resolver for the bundled spec: the operation index (operations.ts), the validator's strict integer
// query check (middleware/openapi-validator.ts) and the SDK generator (scripts/generate-sdk.ts) all read through it.
// The bundled spec holds local refs only (`#/components/...`); anything else is a bundling bug, so it throws rather
// than silently reading the wrong node.

type Json = Record<string, unknown>;

/** Longer chains than this are a cycle (`A → B → A`); real specs chain two or three hops at most. */
export const MAX_REF_CHAIN = 32;

/** RFC 6901: `~1` is `/` and `~0` is `~`, unescaped in that order (so `~01` is the literal `~1`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The node a local JSON-pointer ref (`#/components/schemas/Money`) names. Throws when the ref is not local or names
 * nothing. */
export function refTarget(doc: unknown, ref: string): unknown {
  if (ref === "#") return doc;
  if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported, got "${ref}"`);
  let node: unknown = doc;
  for (const token of ref.slice(2).split("/")) {
    const key = unescapePointerToken(token);
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) {
      throw new Error(`$ref "${ref}" names nothing in the document`);
    }
    node = (node as Json)[key];
  }
  return node;
}

/** Follows `node`'s `$ref` chain to the node it ends at; a node without `$ref` is returned as it is, and a missing node
 * (an absent optional `schema`, say) reads as `{}`. Throws on a cycle. */
export function deref(doc: unknown, node: unknown): Json {
  let current = node;
  for (let hops = 0; isRef(current); hops++) {
    if (hops === MAX_REF_CHAIN) throw new Error(`$ref chain longer than ${MAX_REF_CHAIN} hops (a cycle?) at "${current.$ref}"`);
    current = refTarget(doc, current.$ref);
  }
  return (current ?? {}) as Json;
}

function isRef(node: unknown): node is { $ref: string } {
  return node !== null && typeof node === "object" && typeof (node as Json).$ref === "string";
}
