// Single broken constraints for the conformance test: walks a valid value together with its dereferenced schema and,
// for each node, makes copies that break exactly one constraint there (type, required, enum/const, pattern, the NUL
// rule, format, min/max of length, value, items and properties, uniqueItems, additionalProperties). The caller confirms
// each copy with ajv before sending it.
import { getAt, type PathSegment, setAt } from "./fuzz-schema.ts";

type Json = Record<string, unknown>;

export interface Break {
  /** The constraint broken, e.g. `pattern`, `required`, `additionalProperties`. */
  constraint: string;
  /** The node the server must name: the broken member, the missing one, or the unexpected one. */
  path: PathSegment[];
  /** The whole value with that one constraint broken. */
  value: unknown;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const jsonType = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;

/** allOf members folded into one schema: properties and required merged, other keywords of later members win. */
export function merged(schema: unknown): Json {
  if (!isObject(schema)) return {};
  const { allOf, ...rest } = schema;
  let out: Json = { ...rest };
  for (const member of (allOf ?? []) as unknown[]) {
    const m = merged(member);
    out = {
      ...out,
      ...m,
      properties: { ...((out.properties as Json) ?? {}), ...((m.properties as Json) ?? {}) },
      required: [...((out.required as string[]) ?? []), ...((m.required as string[]) ?? [])],
    };
  }
  return out;
}

const typesOf = (schema: Json): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type as string] : []);

/** The oneOf / anyOf branch a value follows: its type matches and, for an object, it lists every member the value has
 * and the value has every member it requires. */
export function branchOf(schema: Json, value: unknown): Json | undefined {
  const branches = [...((schema.oneOf ?? []) as unknown[]), ...((schema.anyOf ?? []) as unknown[])].map(merged);
  if (branches.length === 0) return undefined;
  return branches.find((b) => {
    const types = typesOf(b);
    const type = jsonType(value);
    if (types.length > 0 && !types.includes(type) && !(type === "integer" && types.includes("number"))) return false;
    if (b.enum && !(b.enum as unknown[]).includes(value)) return false;
    if (b.const !== undefined && b.const !== value) return false;
    if (!isObject(value)) return types.length > 0 || b.enum !== undefined || b.const !== undefined;
    const properties = Object.keys((b.properties as Json) ?? {});
    const closed = b.additionalProperties === false;
    return (
      ((b.required as string[]) ?? []).every((k) => k in value) && (!closed || Object.keys(value).every((k) => properties.includes(k)))
    );
  });
}

/** The schema that governs `value`: allOf merged, then the oneOf/anyOf branch it follows merged in. */
export function effective(schema: unknown, value: unknown): Json {
  const base = merged(schema);
  const branch = branchOf(base, value);
  if (!branch) return base;
  const { oneOf: _o, anyOf: _a, ...rest } = base;
  return merged({ allOf: [rest, branch] });
}

const WRONG_TYPE_VALUES: unknown[] = [12345, "not-a-number", true, null, { x: 1 }, ["x"], 1.5];

function wrongType(types: string[]): unknown {
  const accepts = (v: unknown) => {
    const t = jsonType(v);
    return types.includes(t) || (t === "integer" && types.includes("number"));
  };
  return WRONG_TYPE_VALUES.find((v) => !accepts(v));
}

const BAD_FORMATS: Record<string, string> = {
  "date-time": "2024-13-45T25:61:00Z",
  date: "2024-13-45",
  email: "not-an-email",
  uri: "not a uri",
  "uri-reference": "http://[not a uri",
  uuid: "not-a-uuid",
  "iso3166-alpha2": "QQ",
  "iso3166-region": "QQ-1",
};

function stringBreaks(schema: Json, value: string): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  if (typeof schema.pattern === "string") {
    const pattern = new RegExp(schema.pattern, "u");
    const candidates = [`${value}!`, `!${value}`, `${value} `, `${value}#`, `~${value.slice(1)}`, `${value.slice(0, -1)}~`];
    const broken = candidates.find((c) => !pattern.test(c) && c.length >= min && (max === undefined || c.length <= max));
    if (broken !== undefined) out.push(["pattern", broken]);
  }
  if (schema.enum === undefined && schema.const === undefined) {
    // The NUL rule (docs/design.md "Bodies"): a NUL anywhere in a string is refused.
    const withNul =
      value.length > 0 ? `${value.slice(0, 1)}\u0000${value.slice(max !== undefined && value.length >= max ? 2 : 1)}` : "\u0000";
    out.push(["nul", withNul]);
  }
  if (typeof schema.format === "string" && BAD_FORMATS[schema.format]) out.push(["format", BAD_FORMATS[schema.format]]);
  if (min > 0) out.push(["minLength", value.slice(0, min - 1)]);
  if (max !== undefined && max < 100_000) out.push(["maxLength", value.padEnd(max + 1, value.slice(-1) || "a")]);
  return out;
}

function numberBreaks(schema: Json): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const step = typesOf(schema).includes("integer") ? 1 : 0.5;
  if (typeof schema.minimum === "number") out.push(["minimum", schema.minimum - step]);
  if (typeof schema.maximum === "number") out.push(["maximum", schema.maximum + step]);
  if (typeof schema.exclusiveMinimum === "number") out.push(["exclusiveMinimum", schema.exclusiveMinimum]);
  if (typeof schema.exclusiveMaximum === "number") out.push(["exclusiveMaximum", schema.exclusiveMaximum]);
  return out;
}

function arrayBreaks(schema: Json, value: unknown[]): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (typeof schema.minItems === "number" && schema.minItems > 0) out.push(["minItems", value.slice(0, schema.minItems - 1)]);
  if (typeof schema.maxItems === "number" && value.length > 0 && schema.maxItems < 1000)
    out.push(["maxItems", Array.from({ length: schema.maxItems + 1 }, (_, i) => value[i % value.length])]);
  if (schema.uniqueItems === true && value.length > 0) out.push(["uniqueItems", [...value, value[0]]]);
  return out;
}

/** Every single-constraint break of `root` the walk finds. */
export function breaksOf(root: unknown, schema: unknown): Break[] {
  const out: Break[] = [];
  const visit = (nodeSchema: unknown, path: PathSegment[]) => {
    const value = getAt(root, path);
    const s = effective(nodeSchema, value);
    const at = (constraint: string, broken: unknown, target: PathSegment[] = path) =>
      out.push({ constraint, path: target, value: setAt(root, path, broken) });
    const types = typesOf(s);
    if (types.length > 0) {
      const wrong = wrongType(types);
      if (wrong !== undefined) at("type", wrong);
    }
    if (Array.isArray(s.enum)) at("enum", typeof value === "string" ? `${value}_not_listed` : "not_listed");
    if (s.const !== undefined) at("const", typeof value === "string" ? `${value}_not_listed` : "not_listed");
    if (typeof value === "string") for (const [c, v] of stringBreaks(s, value)) at(c, v);
    if (typeof value === "number") for (const [c, v] of numberBreaks(s)) at(c, v);
    if (Array.isArray(value)) {
      for (const [c, v] of arrayBreaks(s, value)) at(c, v);
      if (s.items !== undefined) for (const i of value.keys()) visit(s.items, [...path, i]);
    }
    if (isObject(value)) {
      const properties = (s.properties as Json) ?? {};
      for (const name of new Set((s.required as string[]) ?? []))
        if (name in value)
          out.push({ constraint: "required", path: [...path, name], value: setAt(root, [...path, name], undefined, true) });
      if (s.additionalProperties === false)
        out.push({
          constraint: "additionalProperties",
          path: [...path, "unexpectedMember"],
          value: setAt(root, [...path, "unexpectedMember"], 1),
        });
      if (typeof s.minProperties === "number" && s.minProperties > 0) at("minProperties", {});
      for (const name of Object.keys(value)) {
        const member = properties[name] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
        if (member !== undefined) visit(member, [...path, name]);
      }
    }
  };
  visit(schema, []);
  return out;
}
