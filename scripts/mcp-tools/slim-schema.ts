// Inlines every $ref and keeps what a model needs to fill a field, so the whole tool list stays within its budget
// (docs/agents.md "Sizes"): patterns, length bounds, formats, examples and long enums (country lists) are dropped —
// the server still validates every call and a refused one names each failing field.
type Schema = Record<string, unknown>;

const DROP = new Set([
  "pattern",
  "minLength",
  "maxLength",
  "format",
  "example",
  "examples",
  "title",
  "additionalProperties",
  "minItems",
  "maxItems",
  "uniqueItems",
  "readOnly",
  "writeOnly",
  "deprecated",
  "$schema",
  "externalDocs",
  "propertyNames",
  "maxProperties",
  "minProperties",
  "discriminator",
]);
const MAX_ENUM = 20;
const MAX_DEPTH = 8;

export function resolveRef(spec: Schema, ref: string): Schema {
  if (!ref.startsWith("#/")) throw new Error(`external $ref in the bundled spec: ${ref}`);
  let node: unknown = spec;
  for (const part of ref.slice(2).split("/")) node = (node as Schema)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  if (!node || typeof node !== "object") throw new Error(`unresolved $ref ${ref}`);
  return node as Schema;
}

/** Follows $ref chains to the schema itself. */
export function deref(spec: Schema, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 20; i++) s = { ...resolveRef(spec, s.$ref as string), ...omit(s, ["$ref"]) };
  return s;
}

function omit(s: Schema, keys: string[]): Schema {
  return Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));
}

/** The first sentence of a description, at most `max` characters, markdown emphasis removed. */
export function shortText(text: unknown, max: number): string | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const flat = text.replace(/\s+/g, " ").replace(/\*\*/g, "").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}

export interface SlimOptions {
  /** Description length at the top level of the input (the tool's arguments) and below it. */
  topDescription: number;
  nestedDescription: number;
  /** Below this depth a schema is only its JSON type (the full one is what describe_operation answers). */
  maxDepth?: number;
}

/** A schema with every $ref inlined and the heavy keywords dropped. `depth` 0 is a tool argument. */
export function slimSchema(spec: Schema, schema: Schema, options: SlimOptions, depth = 0): Schema {
  if (depth > MAX_DEPTH) return {};
  if (options.maxDepth !== undefined && depth >= options.maxDepth) {
    const types = jsonTypes(spec, schema);
    return types ? { type: types.length === 1 ? types[0] : types } : {};
  }
  const s = deref(spec, schema);
  // `allOf: [{$ref}]` with a description beside it (the contract's way to describe a shared type) becomes one schema.
  if (Array.isArray(s.allOf)) {
    const merged: Schema = omit(s, ["allOf"]);
    const properties: Schema = {};
    const required: string[] = [];
    for (const part of s.allOf as Schema[]) {
      const p = deref(spec, part);
      for (const [k, v] of Object.entries(p)) {
        if (k === "properties") Object.assign(properties, v as Schema);
        else if (k === "required") required.push(...(v as string[]));
        else if (!(k in merged)) merged[k] = v;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = { ...properties, ...((merged.properties as Schema) ?? {}) };
    if (required.length > 0) merged.required = [...new Set([...(required as string[]), ...((merged.required as string[]) ?? [])])];
    return slimSchema(spec, merged, options, depth);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if (DROP.has(key) || key.startsWith("x-")) continue;
    if (key === "description") {
      if (out.description) continue;
      // Described at the argument and one level below; deeper the field names speak (the contract has the rest).
      const max = depth === 0 ? options.topDescription : depth === 1 ? options.nestedDescription : 0;
      const text = max > 0 && s.const === undefined ? shortText(value, max) : undefined;
      if (text) out.description = text;
    } else if (key === "enum") {
      if ((value as unknown[]).length <= MAX_ENUM) out.enum = value;
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, p]) => [name, slimSchema(spec, p as Schema, options, depth + 1)]),
      );
    } else if (key === "items" || key === "not") {
      out[key] = slimSchema(spec, value as Schema, options, depth + 1);
    } else if (key === "oneOf" || key === "anyOf") {
      // Branches sit at the level of the union itself; identical ones (typed only, below maxDepth) collapse into one.
      const branches = (value as Schema[]).map((b) => slimSchema(spec, b, options, depth + 1));
      const unique = [...new Map(branches.map((b) => [JSON.stringify(b), b])).values()];
      if (unique.length === 1) {
        Object.assign(out, unique[0]);
        // A tagged union cut at maxDepth still names its tags, so a caller knows which shapes exist.
        const tags = (value as Schema[]).map((b) => taggedAs(spec, b)).filter((t) => t !== undefined);
        if (tags.length === (value as Schema[]).length) out.description = `One of \`type\`: ${tags.join(", ")}.`;
      } else out[key] = unique;
    } else if (key === "default" || key === "const" || key === "type" || key === "required" || key === "minimum" || key === "maximum") {
      out[key] = value;
    } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum" || key === "multipleOf") {
      out[key] = value;
    }
  }
  return out;
}

/** The `type` tag (`const`) of a union's object branch, when it has one. */
function taggedAs(spec: Schema, branch: Schema): string | undefined {
  const b = deref(spec, branch);
  const tag = (b.properties as Schema | undefined)?.type;
  const value = tag ? deref(spec, tag as Schema).const : undefined;
  if (typeof value === "string") return value;
  // A nested union (accounts tagged inside a union of account kinds) lists its branches' tags.
  const inner = (b.oneOf ?? b.anyOf) as Schema[] | undefined;
  const tags = inner?.map((x) => taggedAs(spec, x));
  return tags?.every((t) => t !== undefined) ? tags.join(", ") : undefined;
}

/** The JSON types a schema allows, when it says so plainly (used for the top level of output schemas). */
export function jsonTypes(spec: Schema, schema: Schema, depth = 0): string[] | undefined {
  if (depth > 6) return undefined;
  const s = deref(spec, schema);
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (branches) {
    const all = branches.map((b) => jsonTypes(spec, b, depth + 1));
    if (all.some((t) => t === undefined)) return undefined;
    return [...new Set(all.flat() as string[])];
  }
  if (Array.isArray(s.allOf)) {
    for (const part of s.allOf as Schema[]) {
      const t = jsonTypes(spec, part, depth + 1);
      if (t) return t;
    }
  }
  return undefined;
}
