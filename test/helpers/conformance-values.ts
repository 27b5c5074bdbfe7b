// Values a schema of the bundled spec accepts, for the conformance test (test/http/schema-conformance.test.ts):
// json-schema-faker generates them from the dereferenced schema, fast-check varies how (the faker's seed, how many
// optional members, any-JSON values of every kind), and ajv over the same spec confirms each one before it is sent, so
// a refusal by the server is a disagreement between contract and server, never a generator slip.
import fc from "fast-check";
import { generateSync } from "json-schema-faker";
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords that describe or illustrate a schema; the faker reads `example` under `additionalProperties` as a member. */
const NOT_CONSTRAINTS = new Set(["description", "example", "examples", "title", "externalDocs", "deprecated", "readOnly", "writeOnly"]);

/** Marks a node that accepts any JSON value (no type and no composition): fast-check fills it, not the faker. */
const ANY_JSON = "x-conformance-any-json";

const CONSTRAINING = ["type", "enum", "const", "allOf", "anyOf", "oneOf", "not", "$ref"];

/** The schema at `node` with every `$ref` inlined (a reference to itself becomes `{}`), illustrations dropped and any-JSON
 * nodes marked. */
export function dereference(doc: OpenApiDocument, node: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => dereference(doc, n, seen));
  if (!isObject(node)) return node;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (seen.includes(ref)) return {};
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((o, k) => (o as Json)[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    const { $ref: _, ...siblings } = node;
    return dereference(doc, { ...(target as Json), ...siblings }, [...seen, ref]);
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (NOT_CONSTRAINTS.has(key)) continue;
    out[key] =
      key === "properties" || key === "patternProperties"
        ? mapValues(value as Json, (v) => dereference(doc, v, seen))
        : dereference(doc, value, seen);
  }
  if (!CONSTRAINING.some((k) => k in out)) out[ANY_JSON] = true;
  return out;
}

const mapValues = (object: Json, f: (value: unknown) => unknown): Json =>
  Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

/** Any JSON value the server can store: no NUL and no unpaired surrogate (docs/design.md "Bodies"), a few levels deep. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character the server refuses
export const anyJsonValue = fc.jsonValue({ maxDepth: 3 }).filter((value) => !/\u0000|[\ud800-\udfff]/.test(JSON.stringify(value)));

const COUNTRIES = ["US", "DE", "FR", "GB", "NL", "SG", "BR", "JP", "CA", "CH"];

export interface Knobs {
  /** The faker's seed. */
  seed: number;
  /** Chance that an optional member is present. */
  optionals: number;
}

/** How one generated value varies: drawn by fast-check from the run's seed. */
export const knobs: fc.Arbitrary<Knobs> = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  optionals: fc.constantFrom(0, 0.3, 0.6, 1),
});

/** `count` draws of an arbitrary, the same for the same seed. */
export const draw = <T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] => fc.sample(arbitrary, { seed, numRuns: count });

/** One value of a dereferenced schema. Any-JSON nodes get a fast-check JSON value derived from the same knobs. */
export function generateValue(schema: unknown, { seed, optionals }: Knobs): unknown {
  const anyJson = draw(anyJsonValue, seed, 8);
  let next = 0;
  const value = generateSync(
    stripAnyJson(schema) as never,
    {
      seed,
      optionalsProbability: optionals,
      alwaysFakeOptionals: optionals === 1,
      useExamplesValue: false,
      useDefaultValue: false,
      maxDepth: 6,
      formats: {
        "iso3166-alpha2": (random: { int(min: number, max: number): number }) => COUNTRIES[random.int(0, COUNTRIES.length - 1)],
        "iso3166-region": (random: { int(min: number, max: number): number }) => COUNTRIES[random.int(0, COUNTRIES.length - 1)],
      },
    } as never,
  );
  return fillAnyJson(schema, value, () => anyJson[next++ % anyJson.length]);
}

// The faker knows nothing of the marker; it sees an empty schema (it makes a small value that fillAnyJson replaces).
// It also cannot meet `minProperties` on a closed object whose optional members it left out (it throws "properties … were
// not found while additionalProperties is false"): such an object gets enough of its optional members required, which
// still draws only valid values (key spending limits: `asset` and at least one amount).
function stripAnyJson(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripAnyJson);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === ANY_JSON) continue;
    out[key] = key === "properties" ? mapValues(value as Json, stripAnyJson) : stripAnyJson(value);
  }
  const minimum = typeof node.minProperties === "number" ? node.minProperties : 0;
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  if (node.additionalProperties === false && isObject(node.properties) && required.length < minimum) {
    const optional = Object.keys(node.properties).filter((name) => !required.includes(name));
    out.required = [...required, ...optional.slice(0, minimum - required.length)];
  }
  return out;
}

/** Replaces the value of every any-JSON node (found by walking schema and value together) with `next()`. */
function fillAnyJson(schema: unknown, value: unknown, next: () => unknown): unknown {
  if (!isObject(schema)) return value;
  if (schema[ANY_JSON] === true && !("properties" in schema)) return next();
  if (Array.isArray(value) && isObject(schema.items)) return value.map((item) => fillAnyJson(schema.items, item, next));
  if (!isObject(value)) return value;
  const branches = [...((schema.allOf ?? []) as unknown[]), ...((schema.oneOf ?? []) as unknown[]), ...((schema.anyOf ?? []) as unknown[])];
  const out: Json = { ...value };
  for (const [key, member] of Object.entries(out)) {
    const property =
      ((schema.properties as Json | undefined)?.[key] as unknown) ??
      branches.map((b) => (isObject(b) ? (b.properties as Json | undefined)?.[key] : undefined)).find((p) => p !== undefined) ??
      (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
    if (property !== undefined) out[key] = fillAnyJson(property, member, next);
  }
  return out;
}
