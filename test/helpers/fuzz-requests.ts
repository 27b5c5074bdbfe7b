// Schema-driven fuzz requests: for every operation of the bundled spec, a valid-ish baseline (path parameters, required
// query parameters, a request-body example, an Idempotency-Key) is mutated into malformed requests. Everything is derived
// from one seed, request by request (request i depends only on the seed and i), so a failure reproduces exactly.
import { loadSpec, type OpenApiDocument } from "../../server/spec/load-spec.ts";
import { Rng } from "./fuzz-random.ts";
import { type BodyNode, jsonType, type PathSegment, type Schema, SchemaReader, setAt } from "./fuzz-schema.ts";
import {
  BAD_AMOUNT_STRINGS,
  BAD_IDEMPOTENCY_KEYS,
  BAD_NUMBERS,
  BAD_PATH_SEGMENTS,
  BAD_QUERY_NUMBERS,
  BAD_QUERY_STRINGS,
  BAD_STRINGS,
  EXTRA_KEYS,
  RAW_NUMBER_LITERALS,
  WRONG_CONTENT_TYPES,
  WRONG_TYPES,
} from "./fuzz-values.ts";
import { parameterValue, type SpecOperation, specOperations } from "./spec-requests.ts";

/** Which credential the runner puts in the request (the generator never sees real secrets). */
export type Credential = "sandbox" | "production" | "admin" | "scheduler" | "session" | "none" | "literal";

export interface FuzzRequest {
  index: number;
  operationId: string;
  mutation: string;
  /** What exactly was mutated, for the failure message. */
  detail: string;
  method: string;
  /** Sent verbatim in the request line (already percent-encoded where meant to be). */
  path: string;
  headers: Array<[string, string]>;
  body?: string | Buffer;
  credential: Credential;
  /** The Idempotency-Key this request carries, when it carries exactly one. */
  idempotencyKey?: string;
  /** Statuses this mutation must get, when the contract leaves no choice (e.g. 401 for a bad credential). */
  expect?: number[];
}

/** Values the generator substitutes for path parameters and body fields, so some requests reach real resources. */
export interface FuzzFixtures {
  organizationId: string;
  /** The organization admin bodies name: kept apart, so fuzzed admin writes (a connection to an unknown provider,
   * an unusable config) cannot misconfigure the organization the keyed requests run in. */
  adminOrganizationId: string;
  /** By operationId, then parameter name. */
  pathParams?: Record<string, Record<string, string>>;
  /** By operationId: fields merged into the body example. */
  bodyFields?: Record<string, Record<string, unknown>>;
}

interface Baseline {
  op: SpecOperation;
  raw: Record<string, unknown>;
  method: string;
  pathParams: Array<{ name: string; value: string }>;
  query: Array<[string, string]>;
  queryParams: Array<Record<string, unknown>>;
  bodySchema: Schema | undefined;
  body: unknown;
  hasBody: boolean;
  idempotency: "required" | "optional" | "none";
  credential: Credential;
}

interface Draft {
  mutation: string;
  detail: string;
  method?: string;
  /** Path with parameters filled in; the query string is appended from `query`. */
  path?: string;
  query?: Array<[string, string]>;
  /** A JSON value to serialize, or a raw body. `undefined` leaves the baseline body. */
  body?: { json: unknown } | { raw: string | Buffer } | { none: true };
  contentType?: string | null;
  headers?: Array<[string, string]>;
  idempotency?: { omit: true } | { values: string[] };
  credential?: Credential;
  authorization?: string;
  expect?: number[];
}

type Mutator = (rng: Rng, base: Baseline, schemas: SchemaReader) => Draft | null;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const pointer = (path: PathSegment[]) => `/${path.map(String).join("/")}`;

function describeValue(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}…(${text.length} chars)` : text;
}

const bodyNodes = (base: Baseline, schemas: SchemaReader): BodyNode[] =>
  base.hasBody && base.body !== undefined ? schemas.nodes(base.body, base.bodySchema) : [];

const AMOUNTISH = /amount|limit|price|balance|fee|rate|supply|cap|value|threshold|quantity|minor|decimals|count/i;

// --- body mutations ---------------------------------------------------------------------------------------------

const wrongType: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter((n) => n.path.length > 0);
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  const candidates = WRONG_TYPES.filter((v) => jsonType(v) !== jsonType(node.value));
  const value = rng.pick(candidates);
  return {
    mutation: "body.wrong-type",
    detail: `${pointer(node.path)} = ${describeValue(value)}`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const missingRequired: Mutator = (rng, base, schemas) => {
  const options: PathSegment[][] = [];
  for (const node of bodyNodes(base, schemas)) {
    if (typeof node.value !== "object" || node.value === null || Array.isArray(node.value)) continue;
    for (const name of schemas.required(node.schema, node.value)) if (name in node.value) options.push([...node.path, name]);
  }
  if (options.length === 0) {
    const keys = bodyNodes(base, schemas).filter((n) => typeof n.path[n.path.length - 1] === "string");
    if (keys.length === 0) return null;
    options.push(rng.pick(keys).path);
  }
  const path = rng.pick(options);
  return { mutation: "body.missing-required", detail: `without ${pointer(path)}`, body: { json: setAt(base.body, path, undefined, true) } };
};

const extraProperty: Mutator = (rng, base, schemas) => {
  const objects = bodyNodes(base, schemas).filter((n) => typeof n.value === "object" && n.value !== null && !Array.isArray(n.value));
  if (objects.length === 0) return null;
  const node = rng.pick(objects);
  const key = rng.pick(EXTRA_KEYS);
  const value = rng.pick<unknown>([1, "x", true, null, { nested: 1 }, [1]]);
  return {
    mutation: "body.extra-property",
    detail: `${pointer([...node.path, key])} = ${describeValue(value)}`,
    body: { json: setAt(base.body, [...node.path, key], value) },
  };
};

const badAmount: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter(
    (n) =>
      n.path.length > 0 &&
      (typeof n.value === "number" ||
        (typeof n.value === "string" && (AMOUNTISH.test(String(n.path[n.path.length - 1])) || /^-?\d/.test(n.value)))),
  );
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  if (rng.chance(0.2)) {
    // A number literal JSON.stringify cannot write (1e999, 39 digits): spliced into the serialized body.
    const literal = rng.pick(RAW_NUMBER_LITERALS);
    const marker = "__fuzz_number_literal__";
    const raw = JSON.stringify(setAt(base.body, node.path, marker)).replace(`"${marker}"`, literal);
    return { mutation: "body.bad-amount", detail: `${pointer(node.path)} = ${literal} (raw literal)`, body: { raw } };
  }
  const value = typeof node.value === "number" || rng.chance(0.25) ? rng.pick(BAD_NUMBERS) : rng.pick(BAD_AMOUNT_STRINGS);
  return {
    mutation: "body.bad-amount",
    detail: `${pointer(node.path)} = ${describeValue(value)}`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const badString: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter((n) => typeof n.value === "string");
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  const value = rng.pick(BAD_STRINGS);
  return {
    mutation: "body.bad-string",
    detail: `${pointer(node.path)} = ${describeValue(value)}`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const badEnum: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter((n) => schemas.enumOf(n.schema) !== undefined && typeof n.value === "string");
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  const current = String(node.value);
  const value = rng.pick([
    current.toUpperCase() === current ? current.toLowerCase() : current.toUpperCase(),
    `${current} `,
    ` ${current}`,
    "",
    "unknown_value",
    `${current}\u0000`,
    current.replace(/a/g, "а"),
    `${current},${current}`,
  ]);
  return {
    mutation: "body.bad-enum",
    detail: `${pointer(node.path)} = ${describeValue(value)}`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const oneOfMix: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter((n) => schemas.branches(n.schema).length > 1);
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  const branches = schemas.branches(node.schema);
  const other = rng.pick(branches);
  const sample = schemas.sample(other);
  let value: unknown;
  let how: string;
  const variant = rng.int(4);
  if (variant === 0 && typeof node.value === "object" && node.value !== null && typeof sample === "object" && sample !== null) {
    value = { ...(node.value as object), ...(sample as object) };
    how = "merged with another branch";
  } else if (variant === 1) {
    value = Object.assign({}, ...branches.map((b) => schemas.sample(b)).filter((s) => typeof s === "object" && s !== null));
    how = "all branches merged";
  } else if (variant === 2) {
    value = {};
    how = "empty object";
  } else {
    value =
      typeof node.value === "object" && node.value !== null
        ? { ...(node.value as object), ...(rng.chance(0.5) ? { kind: "both" } : {}) }
        : sample;
    const keys = typeof value === "object" && value !== null ? Object.keys(value) : [];
    if (keys.length > 1) delete (value as Record<string, unknown>)[rng.pick(keys)];
    how = "one key of a branch dropped";
  }
  return {
    mutation: "body.oneof-mix",
    detail: `${pointer(node.path)}: ${how} → ${describeValue(value)}`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const arrayForObject: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas).filter((n) => n.value !== null && typeof n.value !== "undefined");
  if (nodes.length === 0) return null;
  const node = rng.pick(nodes);
  const value = rng.pick([[node.value], [], [node.value, node.value]]);
  return {
    mutation: "body.array-for-value",
    detail: `${pointer(node.path)} wrapped in an array`,
    body: { json: setAt(base.body, node.path, value) },
  };
};

const nullEverywhere: Mutator = (rng, base, schemas) => {
  const nodes = bodyNodes(base, schemas);
  if (nodes.length === 0) return null;
  if (rng.chance(0.3)) {
    let body = base.body;
    for (const node of nodes.filter((n) => n.path.length > 0 && (typeof n.value !== "object" || n.value === null)))
      body = setAt(body, node.path, null);
    return { mutation: "body.null", detail: "every leaf null", body: { json: body } };
  }
  const node = rng.pick(nodes);
  return { mutation: "body.null", detail: `${pointer(node.path)} = null`, body: { json: setAt(base.body, node.path, null) } };
};

// Bodies that are not JSON at all must get 400 (413 above the limit), whatever the operation: the body is parsed before
// routing and authentication.
const NOT_JSON = [400];

function rawBodies(text: string): Array<[string, string | Buffer, number[]?]> {
  const firstKey = /^\{"([^"]+)":/.exec(text)?.[1];
  return [
    ["truncated", text.slice(0, Math.max(1, Math.floor(text.length / 2))), NOT_JSON],
    ["BOM prefix", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
    ["duplicate key", firstKey ? `{"${firstKey}":{"dup":true},${text.slice(1)}` : `{"a":1,"a":2}`],
    ["top-level number", "1", NOT_JSON],
    ["top-level string", '"x"', NOT_JSON],
    ["top-level true", "true", NOT_JSON],
    ["top-level null", "null", NOT_JSON],
    ["top-level array", "[]"],
    ["empty object", "{}"],
    ["trailing garbage", `${text}x`, NOT_JSON],
    ["two documents", `${text}${text}`, NOT_JSON],
    ["comment", `/*c*/${text}`, NOT_JSON],
    ["NaN literal", '{"amount":NaN}', NOT_JSON],
    ["single quotes", text.replace(/"/g, "'"), NOT_JSON],
    ["empty body", ""],
    ["whitespace body", " \n\t "],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ["UTF-16LE", Buffer.from(text, "utf16le")],
    ["lone surrogate escape", '{"name":"\\ud800"}'],
    ["NUL escape in a key", '{"a\\u0000b":1}'],
    ["__proto__ key", `{"__proto__":{"polluted":true},${text.slice(1)}`],
    ["constructor.prototype", '{"constructor":{"prototype":{"polluted":true}}}'],
    ["deep nesting", `${'{"a":'.repeat(200)}1${"}".repeat(200)}`],
    ["deep arrays", `${"[".repeat(3000)}${"]".repeat(3000)}`],
    ["over the size limit", JSON.stringify({ pad: "x".repeat(110 * 1024) }), [413]],
    ["unterminated string", '{"a":"abc', NOT_JSON],
  ];
}

const rawJson: Mutator = (rng, base) => {
  if (base.method === "GET" || base.method === "DELETE") return null;
  const text = base.body === undefined ? '{"a":1}' : JSON.stringify(base.body);
  const [name, raw, strict] = rng.pick(rawBodies(text));
  // An operation that takes no body ignores whatever is sent (malformed or oversized alike); one that takes a body refuses.
  const expect = !base.hasBody || (name === "single quotes" && !text.includes('"')) ? undefined : strict;
  return { mutation: "body.raw-json", detail: name, body: { raw }, ...(expect ? { expect } : {}) };
};

const unexpectedBody: Mutator = (rng, base) => {
  if (base.hasBody) return null;
  const raw = rng.pick(['{"x":1}', "[]", '{"organizationId":"org_other"}', "garbage", '"x"']);
  return { mutation: "body.unexpected", detail: `body ${raw} on an operation without one`, body: { raw } };
};

// --- request-line, header and credential mutations ---------------------------------------------------------------

const badPathParam: Mutator = (rng, base) => {
  if (base.pathParams.length === 0) return null;
  const target = rng.pick(base.pathParams);
  const segment = rng.pick(BAD_PATH_SEGMENTS);
  return {
    mutation: "path.bad-param",
    detail: `{${target.name}} = ${segment.length > 80 ? `${segment.slice(0, 20)}…(${segment.length} chars)` : segment}`,
    path: fillPath(base, { [target.name]: segment }),
  };
};

const mangledPath: Mutator = (rng, base) => {
  const path = fillPath(base);
  const variants: Array<[string, string]> = [
    ["trailing slash", `${path}/`],
    ["double trailing slash", `${path}//`],
    ["doubled slashes", path.replace(/\//g, "//")],
    ["extra segment", `${path}/extra`],
    ["traversal suffix", `${path}/..`],
    ["traversal to admin", `${path}/../../../admin/keys`],
    ["encoded traversal", `${path}/%2e%2e/%2e%2e`],
    ["upper case", path.toUpperCase()],
    ["matrix parameter", `${path};jsessionid=x`],
    ["encoded slash", `${path}%2F`],
    ["NUL suffix", `${path}%00`],
    ["very long", `${path}/${"a".repeat(6000)}`],
    ["backslashes", `/${path.slice(1).replace(/\//g, "%5C")}`],
  ];
  const [detail, mangled] = rng.pick(variants);
  return { mutation: "path.mangled", detail, path: mangled };
};

const badQuery: Mutator = (rng, base) => {
  if (base.queryParams.length === 0) return null;
  const param = rng.pick(base.queryParams);
  const name = String(param.name);
  const numeric = /limit|offset|count|page|size/i.test(name);
  const value = numeric ? rng.pick(BAD_QUERY_NUMBERS) : rng.pick([...BAD_QUERY_STRINGS, ...BAD_QUERY_NUMBERS.slice(0, 4)]);
  const others = base.query.filter(([k]) => k !== name);
  const variant = rng.int(5);
  if (variant === 0) return { mutation: "query.bad", detail: `${name} given twice`, query: [...others, [name, "1"], [name, "2"]] };
  if (variant === 1) return { mutation: "query.bad", detail: `${name}[$gt]`, query: [...others, [`${name}[$gt]`, "0"]] };
  if (variant === 2) return { mutation: "query.bad", detail: `${name}[]`, query: [...others, [`${name}[]`, "1"]] };
  return { mutation: "query.bad", detail: `${name}=${value.slice(0, 60)}`, query: [...others, [name, value]] };
};

const unknownQuery: Mutator = (rng, base) => {
  const [name, value] = rng.pick<[string, string]>([
    ["foo", "bar"],
    ["api_key", "cp_sandbox_x"],
    ["access_token", "x"],
    ["__proto__", "x"],
    ["organizationId", "org_other"],
    ["", "x"],
    ["%00", "x"],
    ["limit", "1"],
    ["cursor", "%27%20OR%201%3D1"],
  ]);
  return { mutation: "query.unknown", detail: `${name}=${value}`, query: [...base.query, [name, value]] };
};

const wrongContentType: Mutator = (rng, base) => {
  if (!base.hasBody) return null;
  if (rng.chance(0.2)) return { mutation: "content-type.wrong", detail: "no Content-Type", contentType: null };
  if (rng.chance(0.15)) {
    const encoding = rng.pick(["gzip", "deflate", "br", "identity, gzip", "x-unknown"]);
    return {
      mutation: "content-type.wrong",
      detail: `Content-Encoding: ${encoding} (body not encoded)`,
      headers: [["content-encoding", encoding]],
    };
  }
  const type = rng.pick(WRONG_CONTENT_TYPES);
  return { mutation: "content-type.wrong", detail: `Content-Type: ${type}`, contentType: type };
};

const badIdempotencyKey: Mutator = (rng, base) => {
  if (base.idempotency === "none") return null;
  if (base.idempotency === "required" && rng.chance(0.3))
    return { mutation: "idempotency.bad", detail: "missing", idempotency: { omit: true }, expect: [400] };
  if (rng.chance(0.2)) return { mutation: "idempotency.bad", detail: "sent twice", idempotency: { values: ["fuzz-dup-a", "fuzz-dup-b"] } };
  if (rng.chance(0.15))
    return { mutation: "idempotency.bad", detail: "shared with other requests", idempotency: { values: ["fuzz-shared-key"] } };
  const value = rng.pick(BAD_IDEMPOTENCY_KEYS);
  return { mutation: "idempotency.bad", detail: `= ${describeValue(value)}`, idempotency: { values: [value] } };
};

const badAuthorization: Mutator = (rng, base) => {
  // An operation anyone may call (sign in, accept an invitation) has no credential to spoil.
  if (base.credential === "none") return null;
  const options: Array<[string, Draft]> = [
    ["none", { mutation: "auth.bad", detail: "no Authorization", credential: "none" }],
    ["empty bearer", { mutation: "auth.bad", detail: "Bearer with no token", credential: "literal", authorization: "Bearer " }],
    [
      "unknown key",
      {
        mutation: "auth.bad",
        detail: "well-formed unknown key",
        credential: "literal",
        authorization: `Bearer cp_sandbox_${"A".repeat(43)}`,
      },
    ],
    ["basic", { mutation: "auth.bad", detail: "Basic scheme", credential: "literal", authorization: "Basic dXNlcjpwYXNz" }],
    ["injection", { mutation: "auth.bad", detail: "SQL-shaped token", credential: "literal", authorization: "Bearer ' OR '1'='1" }],
    ["long", { mutation: "auth.bad", detail: "8 kB token", credential: "literal", authorization: `Bearer ${"x".repeat(8000)}` }],
    ["latin1", { mutation: "auth.bad", detail: "non-ASCII token", credential: "literal", authorization: "Bearer cp_sandbox_\u00e9\u00e9" }],
  ];
  // The wrong kind of credential (an operation with none returned above).
  if (base.credential === "admin")
    options.push(["api key on admin", { mutation: "auth.bad", detail: "API key on the admin API", credential: "sandbox" }]);
  else options.push(["admin token", { mutation: "auth.bad", detail: "admin token instead of an API key", credential: "admin" }]);
  // Authentication runs before validation, so any bad credential is 401 whatever else the request carries.
  return { ...rng.pick(options)[1], expect: [401] };
};

const wrongMethod: Mutator = (rng, base) => {
  const item = base.op.operation.pathTemplate;
  const defined = new Set(Object.keys(loadedDoc().paths[item] ?? {}).map((m) => m.toUpperCase()));
  const methods = METHODS.filter((m) => !defined.has(m));
  if (methods.length === 0) return null;
  const method = rng.pick(methods);
  return { mutation: "method.wrong", detail: method, method, body: method === "GET" ? { none: true } : undefined, expect: [405] };
};

/** Every mutation kind; the coverage pass applies each one to each operation it fits. */
export const MUTATORS: Array<[string, Mutator]> = [
  ["body.wrong-type", wrongType],
  ["body.missing-required", missingRequired],
  ["body.extra-property", extraProperty],
  ["body.bad-amount", badAmount],
  ["body.bad-string", badString],
  ["body.bad-enum", badEnum],
  ["body.oneof-mix", oneOfMix],
  ["body.array-for-value", arrayForObject],
  ["body.null", nullEverywhere],
  ["body.raw-json", rawJson],
  ["body.unexpected", unexpectedBody],
  ["path.bad-param", badPathParam],
  ["path.mangled", mangledPath],
  ["query.bad", badQuery],
  ["query.unknown", unknownQuery],
  ["content-type.wrong", wrongContentType],
  ["idempotency.bad", badIdempotencyKey],
  ["auth.bad", badAuthorization],
  ["method.wrong", wrongMethod],
];

// Body mutations are drawn more often in the random pass: they are where most of the input space is.
const RANDOM_WEIGHTS: Record<string, number> = {
  "body.wrong-type": 4,
  "body.missing-required": 3,
  "body.extra-property": 2,
  "body.bad-amount": 4,
  "body.bad-string": 4,
  "body.bad-enum": 2,
  "body.oneof-mix": 3,
  "body.array-for-value": 2,
  "body.null": 2,
  "body.raw-json": 3,
  "path.bad-param": 3,
  "query.bad": 3,
};

// --- baselines and assembly ---------------------------------------------------------------------------------------

let cachedDoc: OpenApiDocument | undefined;
const loadedDoc = () => {
  cachedDoc ??= loadSpec();
  return cachedDoc;
};

function fillPath(base: Baseline, overrides: Record<string, string> = {}): string {
  let path = base.op.operation.pathTemplate;
  for (const { name, value } of base.pathParams) path = path.replace(`{${name}}`, overrides[name] ?? encodeURIComponent(value));
  return path;
}

function baselineFor(doc: OpenApiDocument, schemas: SchemaReader, op: SpecOperation, fixtures: FuzzFixtures, rng: Rng): Baseline {
  const { operationId } = op.operation;
  const pathParams = op.parameters
    .filter((p) => p.in === "path")
    .map((p) => ({ name: String(p.name), value: fixtures.pathParams?.[operationId]?.[String(p.name)] ?? parameterValue(doc, p) }));
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const query: Array<[string, string]> = queryParams.filter((p) => p.required).map((p) => [String(p.name), parameterValue(doc, p)]);
  const media = (
    (op.raw.requestBody as Record<string, unknown> | undefined)?.content as Record<string, Record<string, unknown>> | undefined
  )?.["application/json"];
  const bodySchema = schemas.resolve(media?.schema);
  let body: unknown;
  if (media) {
    // Examples that show a sandbox magic value (e.g. amount 666.66 → 502 PROVIDER_EXECUTION_FAILED) are documented
    // failures on purpose; a baseline must be an ordinary request, so they are left out.
    const examples = Object.values((media.examples ?? {}) as Record<string, { value?: unknown; summary?: string }>)
      .filter((e) => !/^sandbox:|magic/i.test(e.summary ?? ""))
      .map((e) => e.value);
    body = structuredClone(examples.length > 0 ? rng.pick(examples) : (media.example ?? schemas.sample(bodySchema)));
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const record = body as Record<string, unknown>;
      if ("organizationId" in record)
        record.organizationId = op.operation.surface === "admin" ? fixtures.adminOrganizationId : fixtures.organizationId;
      for (const [key, value] of Object.entries(fixtures.bodyFields?.[operationId] ?? {})) if (key in record) record[key] = value;
    }
  }
  const security = op.operation.security;
  const credential: Credential =
    security === "adminToken"
      ? "admin"
      : security === "schedulerSecret"
        ? "scheduler"
        : security === "none"
          ? "none"
          : security === "session"
            ? "session"
            : "sandbox";
  return {
    op,
    raw: op.raw,
    method: op.operation.method,
    pathParams,
    query,
    queryParams,
    bodySchema,
    body,
    hasBody: media !== undefined,
    idempotency: op.operation.idempotency,
    credential,
  };
}

function assemble(index: number, base: Baseline, draft: Draft, seedTag: string, production: boolean): FuzzRequest {
  const method = draft.method ?? base.method;
  const query = draft.query ?? base.query;
  const search = query.map(([k, v]) => (k === "" ? `=${v}` : `${k}=${v}`)).join("&");
  const path = `${draft.path ?? fillPath(base)}${search ? `?${search}` : ""}`;
  let body: string | Buffer | undefined;
  const choice = draft.body ?? (base.hasBody ? { json: base.body } : { none: true as const });
  if ("json" in choice) body = choice.json === undefined ? undefined : JSON.stringify(choice.json);
  else if ("raw" in choice) body = choice.raw;
  const headers: Array<[string, string]> = [];
  if (body !== undefined && draft.contentType !== null) headers.push(["content-type", draft.contentType ?? "application/json"]);
  let idempotencyKey: string | undefined;
  if (base.idempotency !== "none" || draft.idempotency) {
    if (draft.idempotency && "values" in draft.idempotency) {
      for (const value of draft.idempotency.values) headers.push(["idempotency-key", value]);
      if (draft.idempotency.values.length === 1) idempotencyKey = draft.idempotency.values[0];
    } else if (!draft.idempotency) {
      idempotencyKey = `fuzz-${seedTag}-${index}`;
      headers.push(["idempotency-key", idempotencyKey]);
    }
  }
  headers.push(...(draft.headers ?? []));
  let credential = draft.credential ?? base.credential;
  if (production && credential === "sandbox") credential = "production";
  if (draft.authorization !== undefined) headers.push(["authorization", draft.authorization]);
  return {
    index,
    operationId: base.op.operation.operationId,
    mutation: draft.mutation,
    detail: draft.detail,
    method,
    path,
    headers,
    body,
    credential,
    idempotencyKey,
    ...(draft.expect ? { expect: draft.expect } : {}),
  };
}

export interface GenerateOptions {
  seed: number;
  count: number;
  fixtures: FuzzFixtures;
  /** Share of API-key requests sent with a production key of the same organization. */
  productionShare?: number;
  /** Operations to leave out (e.g. the health probes, which take no input). */
  skip?: (op: SpecOperation) => boolean;
}

/** `count` requests (at least one per applicable operation × mutation pair, then random ones), deterministic in `seed`. */
export function generateFuzzRequests(options: GenerateOptions): FuzzRequest[] {
  const doc = loadedDoc();
  const schemas = new SchemaReader(doc);
  const operations = specOperations(doc).filter((op) => !options.skip?.(op));
  const root = new Rng(options.seed);
  const seedTag = options.seed.toString(36);
  const productionShare = options.productionShare ?? 0.15;
  const out: FuzzRequest[] = [];

  const build = (index: number, op: SpecOperation, mutator: Mutator): FuzzRequest | null => {
    const rng = root.fork(index);
    const base = baselineFor(doc, schemas, op, options.fixtures, rng);
    const draft = mutator(rng, base, schemas);
    if (!draft) return null;
    const production = base.credential === "sandbox" && op.operation.surface !== "admin" && rng.chance(productionShare);
    return assemble(index, base, draft, seedTag, production);
  };

  // Coverage pass: every operation × every mutation that fits it.
  for (const op of operations) {
    for (const [, mutator] of MUTATORS) {
      const request = build(out.length, op, mutator);
      if (request) out.push(request);
    }
  }
  // Random pass, weighted towards body mutations.
  const weighted = MUTATORS.flatMap(([name, mutator]) => Array.from({ length: RANDOM_WEIGHTS[name] ?? 1 }, () => mutator));
  const picker = root.fork(0x7fffffff);
  for (let attempts = 0; out.length < options.count && attempts < options.count * 20; attempts++) {
    const request = build(out.length, picker.pick(operations), picker.pick(weighted));
    if (request) out.push(request);
  }
  return out.slice(0, Math.max(options.count, 0));
}

/** The request as one readable block, for assertion messages. */
export function formatRequest(request: FuzzRequest, seed: number): string {
  const body =
    request.body === undefined
      ? "(no body)"
      : Buffer.isBuffer(request.body)
        ? `<${request.body.length} bytes: ${request.body.toString("hex").slice(0, 120)}>`
        : request.body.length > 300
          ? `${request.body.slice(0, 300)}…(${request.body.length} chars)`
          : request.body;
  const headers = request.headers.map(([k, v]) => `  ${k}: ${v.length > 100 ? `${v.slice(0, 100)}…(${v.length} chars)` : v}`).join("\n");
  const path = request.path.length > 300 ? `${request.path.slice(0, 300)}…(${request.path.length} chars)` : request.path;
  return [
    `seed ${seed} request #${request.index} — ${request.operationId} ${request.mutation}: ${request.detail}`,
    `${request.method} ${path}  [credential: ${request.credential}]`,
    headers,
    body,
    `reproduce: FUZZ_SEED=${seed} npx vitest run --project pglite-rest test/security/fuzz.test.ts`,
  ].join("\n");
}
