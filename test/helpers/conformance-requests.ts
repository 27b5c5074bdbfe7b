// The requests of the conformance test, derived from the bundled spec alone, operation by operation (so operations
// added later are covered without a change here): valid requests (body, path, query and header values generated from
// their schemas, each confirmed by ajv) and, from one valid request, copies with exactly one constraint broken
// (confirmed invalid by ajv at that node). Deterministic in the seed: request i of an operation depends only on the
// seed and the operationId.
import fc from "fast-check";
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";
import { SpecValidator } from "../sdk/spec-validator.ts";
import { type Break, breaksOf } from "./conformance-breaks.ts";
import { dereference, draw, generateValue, type Knobs, knobs } from "./conformance-values.ts";
import type { Credential, FuzzRequest } from "./fuzz-requests.ts";
import type { PathSegment } from "./fuzz-schema.ts";
import { type SpecOperation, specOperations } from "./spec-requests.ts";

type Json = Record<string, unknown>;

export interface ConformanceFixtures {
  /** The organization of the API keys: an `organizationId` member or parameter is set to it (another one is 403). */
  organizationId: string;
  /** The organization admin requests name, kept apart from the keyed one. */
  adminOrganizationId: string;
}

export interface ConformanceRequest extends FuzzRequest {
  /** For a broken request: the constraint broken and the error path the server must name (`/body/…`, `/query/…`). */
  broken?: { constraint: string; path: string };
}

export interface OperationPlan {
  operationId: string;
  valid: ConformanceRequest[];
  broken: ConformanceRequest[];
  /** Values the generator could not make valid (ajv refused them): a schema the generator cannot satisfy. */
  generatorMisses: string[];
}

interface Input {
  /** Where the value sits: `body`, or a parameter's location. */
  in: "body" | "path" | "query" | "header";
  name: string;
  required: boolean;
  /** The schema, dereferenced for the generator. */
  schema: unknown;
  /** ajv over the spec's own schema. */
  validate: (value: unknown) => boolean;
  /** The ajv errors of the last validate call, as instance paths. */
  errorPaths: () => string[];
}

interface Values {
  body?: unknown;
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
}

const escapeToken = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const pointer = (path: PathSegment[]) => path.map((p) => `/${escapeToken(String(p))}`).join("");

/** A stable number per operation, so each operation's draws do not depend on the others. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The node at a pointer, its `$ref`s followed, and the pointer it was found at (ajv compiles from there). */
function refTarget(validator: SpecValidator, pointerText: string): { pointer: string; node: Json } {
  let current = pointerText;
  let node = validator.node(current) as Json;
  while (typeof node?.$ref === "string") {
    current = node.$ref;
    node = validator.node(current) as Json;
  }
  return { pointer: current, node };
}

function inputsOf(doc: OpenApiDocument, validator: SpecValidator, op: SpecOperation): Input[] {
  const base = `#/paths/${escapeToken(op.operation.pathTemplate)}/${op.operation.method.toLowerCase()}`;
  const out: Input[] = [];
  const validatorAt = (schemaPointer: string) => {
    const validate = validator.validatorFor(schemaPointer);
    return {
      validate: (value: unknown) => validate(value) as boolean,
      errorPaths: () => (validate.errors ?? []).map((e) => e.instancePath),
    };
  };
  const item = validator.node(`#/paths/${escapeToken(op.operation.pathTemplate)}`) as Json;
  const declared: Array<[string, Json]> = [
    ...((item.parameters ?? []) as Json[]).map(
      (p, i) => [`#/paths/${escapeToken(op.operation.pathTemplate)}/parameters/${i}`, p] as [string, Json],
    ),
    ...((op.raw.parameters ?? []) as Json[]).map((p, i) => [`${base}/parameters/${i}`, p] as [string, Json]),
  ];
  for (const [at] of declared) {
    const { pointer: where, node } = refTarget(validator, at);
    out.push({
      in: node.in as Input["in"],
      name: String(node.name),
      required: node.required === true,
      schema: dereference(doc, node.schema),
      ...validatorAt(`${where}/schema`),
    });
  }
  if (op.raw.requestBody) {
    const { pointer: where, node } = refTarget(validator, `${base}/requestBody`);
    const media = (node.content as Json | undefined)?.["application/json"] as Json | undefined;
    if (media?.schema)
      out.push({
        in: "body",
        name: "body",
        required: node.required === true,
        schema: dereference(doc, media.schema),
        ...validatorAt(`${where}/content/application~1json/schema`),
      });
  }
  return out;
}

const credentialOf = (op: SpecOperation): Credential =>
  op.operation.security === "adminToken"
    ? "admin"
    : op.operation.security === "schedulerSecret"
      ? "scheduler"
      : op.operation.security === "none"
        ? "none"
        : op.operation.security === "session"
          ? "session"
          : "sandbox";

/** Values the generator cannot know: the organization the key belongs to. */
function withFixtures(op: SpecOperation, input: Input, value: unknown, fixtures: ConformanceFixtures): unknown {
  const organizationId = op.operation.surface === "admin" ? fixtures.adminOrganizationId : fixtures.organizationId;
  if (input.in !== "body") return input.name === "organizationId" ? organizationId : value;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && "organizationId" in value)
    return { ...(value as Json), organizationId };
  return value;
}

/** A generated value of `input` that ajv accepts, trying a few seeds; undefined when none is found. */
function validValue(op: SpecOperation, input: Input, k: Knobs, fixtures: ConformanceFixtures): unknown {
  for (let attempt = 0; attempt < 5; attempt++) {
    const value = withFixtures(op, input, generateValue(input.schema, { ...k, seed: k.seed + attempt }), fixtures);
    const asSent = input.in === "body" ? value : parameterAsReceived(input, value);
    if (input.validate(asSent)) return value;
  }
  return undefined;
}

/** What the server's validator sees for a parameter sent as text: a decimal integer query value is read as a number. */
function parameterAsReceived(input: Input, value: unknown): unknown {
  const wire = Array.isArray(value) ? value.map(toText) : toText(value);
  const type = (input.schema as Json | undefined)?.type;
  if (type === "integer" && typeof wire === "string" && /^-?[0-9]{1,16}$/.test(wire)) return Number(wire);
  return wire;
}

function toText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function assemble(op: SpecOperation, values: Values, index: number, mutation: string, detail: string): ConformanceRequest {
  let path = op.operation.pathTemplate;
  for (const [name, value] of Object.entries(values.path)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query: string[] = [];
  for (const [name, value] of Object.entries(values.query)) {
    for (const item of Array.isArray(value) ? value : [value])
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(toText(item))}`);
  }
  const headers: Array<[string, string]> = Object.entries(values.header).map(([k, v]) => [k.toLowerCase(), v]);
  let body: string | undefined;
  if (values.body !== undefined) {
    body = JSON.stringify(values.body);
    headers.push(["content-type", "application/json"]);
  }
  return {
    index,
    operationId: op.operation.operationId,
    mutation,
    detail,
    method: op.operation.method,
    path: query.length > 0 ? `${path}?${query.join("&")}` : path,
    headers,
    body,
    credential: credentialOf(op),
    idempotencyKey: values.header["Idempotency-Key"] ?? values.header["idempotency-key"],
  };
}

export interface PlanOptions {
  doc: OpenApiDocument;
  seed: number;
  /** Valid requests per operation. */
  validPerOperation: number;
  /** Broken requests per operation (one per constraint kind first, then more of the same kinds). */
  brokenPerOperation: number;
  fixtures: ConformanceFixtures;
}

/** Every operation with an input (parameters or a body), with its valid and broken requests. */
export function conformancePlans(options: PlanOptions): OperationPlan[] {
  const { doc, fixtures } = options;
  const validator = new SpecValidator(doc);
  const usedKeys = new Set<string>();
  const plans: OperationPlan[] = [];
  for (const op of specOperations(doc)) {
    const inputs = inputsOf(doc, validator, op);
    if (inputs.length === 0) continue;
    const opSeed = (options.seed ^ hash(op.operation.operationId)) >>> 0;
    const draws = draw(knobs, opSeed, options.validPerOperation + 1);
    const plan: OperationPlan = { operationId: op.operation.operationId, valid: [], broken: [], generatorMisses: [] };

    const valuesFor = (k: Knobs, full: boolean): Values | undefined => {
      const values: Values = { path: {}, query: {}, header: {} };
      for (const [i, input] of inputs.entries()) {
        // Optional parameters: all of them in the full request, a share in the others.
        if (!input.required && input.in !== "body" && !full && (k.seed >> i) % 3 === 0) continue;
        // An optional simulated-error header turns the request into a provider failure: only in some requests.
        if (!input.required && input.in === "header" && /simulate/i.test(input.name) && (full || (k.seed >> i) % 4 !== 1)) continue;
        let value = validValue(op, input, { ...k, seed: (k.seed + i * 7919) >>> 0 }, fixtures);
        if (value === undefined) {
          plan.generatorMisses.push(`${input.in} ${input.name}`);
          return undefined;
        }
        // A path id is any string up to 255 characters (PathId), but an empty one is no path segment (another route).
        if (input.in === "path" && value === "") value = "x";
        if (input.in === "header" && input.name.toLowerCase() === "idempotency-key") {
          // Keys must not collide across requests (a reuse is a 422, not what this test asks).
          for (let n = 0; usedKeys.has(String(value)) && n < 20; n++)
            value = validValue(op, input, { ...k, seed: k.seed + 1000 + n }, fixtures);
          if (usedKeys.has(String(value))) value = `conformance-${opSeed}-${usedKeys.size}`;
          usedKeys.add(String(value));
        }
        if (input.in === "body") values.body = value;
        else values[input.in][input.name] = input.in === "query" ? value : toText(value);
      }
      return values;
    };

    for (const [n, k] of draws.slice(0, options.validPerOperation).entries()) {
      const values = valuesFor(k, false);
      if (values) plan.valid.push(assemble(op, values, n, "valid", `knobs ${JSON.stringify(k)}`));
    }

    const fullKnobs = { ...(draws[options.validPerOperation] as Knobs), optionals: 1 };
    const full = valuesFor(fullKnobs, true);
    if (full) {
      const candidates = brokenCandidates(inputs, full);
      for (const [n, candidate] of pickSpread(candidates, options.brokenPerOperation, opSeed).entries()) {
        // Each copy gets a key of its own (unless the key is what it breaks), so none can be taken for a reuse.
        const header = { ...candidate.values.header };
        for (const name of Object.keys(header))
          if (name.toLowerCase() === "idempotency-key" && !candidate.errorPath.startsWith("/headers/"))
            header[name] = `conformance-${opSeed}-b${n}`;
        const request = assemble(op, { ...candidate.values, header }, 1000 + n, `break.${candidate.break.constraint}`, candidate.label);
        plan.broken.push({ ...request, broken: { constraint: candidate.break.constraint, path: candidate.errorPath } });
      }
      plan.valid.push(assemble(op, full, options.validPerOperation, "valid", "every optional member"));
    }
    plans.push(plan);
  }
  return plans;
}

interface Candidate {
  break: Break;
  values: Values;
  errorPath: string;
  label: string;
}

/** Breaks of every input, each confirmed by ajv: invalid, and every error at the broken node, below it, or above it. */
function brokenCandidates(inputs: Input[], full: Values): Candidate[] {
  const out: Candidate[] = [];
  for (const input of inputs) {
    const current = input.in === "body" ? full.body : full[input.in][input.name];
    if (current === undefined) continue;
    const breaks = breaksOf(input.in === "query" || input.in === "body" ? current : String(current), input.schema);
    for (const b of breaks) {
      if (input.in !== "body" && (b.path.length > 0 || b.constraint === "nul")) continue;
      // An empty path segment is another route, not an empty parameter; an empty query array is no parameter at all.
      if (input.in === "path" && b.value === "") continue;
      if (input.in === "query" && Array.isArray(b.value) && b.value.length === 0) continue;
      if (input.in !== "body" && input.in !== "query" && b.constraint === "type") continue; // path and header values are text
      if (input.in === "query" && b.constraint === "type" && (typeof b.value === "object" || typeof b.value === "boolean")) continue;
      if (input.validate(input.in === "body" ? b.value : parameterAsReceived(input, b.value))) continue;
      const target = pointer(b.path);
      const related = input.errorPaths().every((p) => p === target || p.startsWith(`${target}/`) || target.startsWith(`${p}/`) || p === "");
      if (!related) continue;
      const values: Values = { ...full, path: { ...full.path }, query: { ...full.query }, header: { ...full.header } };
      if (input.in === "body") values.body = b.value;
      else values[input.in][input.name] = input.in === "query" ? b.value : (b.value as string);
      const errorPath = errorPathOf(input, target);
      out.push({
        break: b,
        values,
        errorPath,
        label: `${errorPath}: ${b.constraint} → ${describe(input.in === "body" ? (b.path.length ? setAtValue(b) : b.value) : b.value)}`,
      });
    }
  }
  return out;
}

/** Where the server's errors point (docs/getting-started.md): `/body/…`, `/query/name`, `/params/name`, `/headers/name`. */
function errorPathOf(input: Input, target: string): string {
  if (input.in === "body") return `/body${target}`;
  if (input.in === "header") return `/headers/${input.name.toLowerCase()}`;
  return `/${input.in === "path" ? "params" : "query"}/${input.name}`;
}

function setAtValue(b: Break): unknown {
  let node: unknown = b.value;
  for (const key of b.path) node = (node as Record<PathSegment, unknown> | undefined)?.[key];
  return node === undefined ? "(removed)" : node;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Up to `count` candidates: one of each constraint kind first (in a seeded order), then further ones round-robin. */
function pickSpread(candidates: Candidate[], count: number, seed: number): Candidate[] {
  const byKind = new Map<string, Candidate[]>();
  for (const c of candidates) byKind.set(c.break.constraint, [...(byKind.get(c.break.constraint) ?? []), c]);
  const kinds = [...byKind.keys()].sort();
  const order = draw(shuffleOf(kinds.length), seed, 1)[0] ?? [];
  const queues = order.map((i) => {
    const list = byKind.get(kinds[i] as string) as Candidate[];
    const rotation = seed % list.length;
    return [...list.slice(rotation), ...list.slice(0, rotation)];
  });
  const out: Candidate[] = [];
  for (let round = 0; out.length < count && queues.some((q) => q.length > round); round++)
    for (const queue of queues) if (queue[round] && out.length < count) out.push(queue[round] as Candidate);
  return out;
}

const shuffleOf = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );
