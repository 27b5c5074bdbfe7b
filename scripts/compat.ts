// The compatibility policy of docs/compatibility.md as code: which differences between the last released spec
// (openapi/released/openapi.json) and the current bundle break a client, by api-smart-diff (an OpenAPI 3.0/3.1 diff
// library with a breaking / non-breaking / deprecated classification, pure JavaScript, offline), and whether the
// deprecations the spec declares give the notice the policy promises.
import { apiCompare } from "api-smart-diff";
import { deprecationOf } from "../server/spec/operations.ts";
import { type CompatCorrection, corrections as declaredCorrections } from "./compat-corrections.ts";

type Json = Record<string, unknown>;

/** The least time between an operation's deprecation and its sunset (docs/compatibility.md). */
export const MIN_NOTICE_DAYS = 180;
const DAY_MS = 86_400_000;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

export interface BreakingChange {
  /** `POST /api/v1/wallets`, or the path alone when a whole path item changed, or a webhook name. */
  where: string;
  description: string;
}

export interface CompatReport {
  breaking: BreakingChange[];
  /** Breaking differences the policy allows: the operation was deprecated and its sunset has passed. */
  sunsetRemovals: BreakingChange[];
  /** Breaking differences a declared correction allows (scripts/compat-corrections.ts), for the release it names. */
  corrections: BreakingChange[];
  /** Deprecations in the current spec that break the policy (missing dates, too short a notice). */
  deprecationErrors: string[];
}

/** Keywords that only document a schema: a change to them changes no client's code. */
const ANNOTATIONS = new Set(["description", "title", "example", "examples", "$comment"]);

/**
 * A reference with annotations beside it — `{ $ref, description }`, or `{ allOf: [{ $ref }], description }` (the form
 * every generator keeps; `oneOf` for a discriminated target, which openapi-typescript would read as inheritance in an
 * `allOf`) — as the bare reference. The diff library reads either as a new inline schema (its `type`
 * "removed"), although the values allowed are the referenced schema's either way.
 */
function bareReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(bareReferences);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node as Json);
  const annotated = (key: string) => entries.every(([k]) => k === key || ANNOTATIONS.has(k));
  const obj = node as Json;
  if (typeof obj.$ref === "string" && annotated("$ref")) return { $ref: obj.$ref };
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const members = obj[key];
    if (!Array.isArray(members) || members.length !== 1 || !annotated(key)) continue;
    const only = members[0] as Json;
    if (only && typeof only.$ref === "string" && Object.keys(only).length === 1) return { $ref: only.$ref };
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, k === "example" || k === "examples" ? v : bareReferences(v)]));
}

/** What a client never sees: code samples (documentation), the generation notice, annotations beside a reference. */
export function comparable(spec: Json): Json {
  const copy = bareReferences(structuredClone(spec)) as Json;
  delete copy["x-generated"];
  delete copy["x-released"];
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) delete (item[method] as Json | undefined)?.["x-codeSamples"];
  }
  return copy;
}

/** Every deprecated operation has both dates, and at least MIN_NOTICE_DAYS between them. */
export function deprecationErrors(spec: Json): string[] {
  const errors: string[] = [];
  for (const [template, item] of Object.entries((spec.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      try {
        const deprecation = deprecationOf(op);
        if (!deprecation) continue;
        const days = (deprecation.sunset.getTime() - deprecation.deprecatedAt.getTime()) / DAY_MS;
        if (days < MIN_NOTICE_DAYS)
          errors.push(
            `${method.toUpperCase()} ${template}: ${days} days between x-deprecated-at and x-sunset (at least ${MIN_NOTICE_DAYS})`,
          );
      } catch (error) {
        errors.push(`${method.toUpperCase()} ${template}: ${(error as Error).message}`);
      }
    }
  }
  return errors;
}

/** The released operation a diff path (`["paths", template, method, …]`) lies in, and whether its sunset has passed. */
function sunsetPassed(released: Json, path: readonly unknown[], today: Date): boolean {
  if (path[0] !== "paths") return false;
  const item = (released.paths as Record<string, Json> | undefined)?.[String(path[1])];
  if (!item) return false;
  const method = path[2] === undefined ? undefined : String(path[2]);
  const ops = method && METHODS.includes(method) ? [item[method] as Json | undefined] : METHODS.map((m) => item[m] as Json | undefined);
  const present = ops.filter((op): op is Json => op !== undefined);
  if (present.length === 0) return false;
  return present.every((op) => {
    try {
      const deprecation = deprecationOf(op);
      return deprecation !== undefined && deprecation.sunset.getTime() <= today.getTime();
    } catch {
      return false;
    }
  });
}

/** Where a diff path lies inside an operation's or webhook's responses (after `responses/<status>`), else undefined. */
function inResponse(path: readonly unknown[]): readonly unknown[] | undefined {
  const at = path.indexOf("responses");
  return at >= 0 && at + 2 <= path.length ? path.slice(at + 2) : undefined;
}

/**
 * Differences the diff library calls breaking that the policy does not (docs/compatibility.md "What is a breaking
 * change"): a response that now guarantees more — a header or a field declared required where it was optional — is
 * read by the same client code as before (clients tolerate what they did not expect, and lose nothing they had).
 */
function guaranteesMore(diff: { action: string; path: readonly unknown[] }): boolean {
  const rest = inResponse(diff.path);
  if (!rest || diff.action !== "add") return false;
  const last = rest[rest.length - 1];
  // headers/<Name>/required, or a schema's `required` list (or one of its entries) inside the response content.
  return (last === "required" && rest[0] === "headers") || rest.includes("required");
}

function whereOf(path: readonly unknown[]): string {
  if (path[0] === "paths") {
    const method = path[2] !== undefined && METHODS.includes(String(path[2])) ? `${String(path[2]).toUpperCase()} ` : "";
    return `${method}${String(path[1])}`;
  }
  return path.slice(0, 2).map(String).join(" ");
}

/**
 * Compares the released spec with the current one. Only differences a client meets count: those under `paths` and
 * `webhooks` (a change in `components` shows there wherever a schema is used; an unused schema breaks nobody).
 */
export function compareSpecs(
  released: Json,
  current: Json,
  today = new Date(),
  corrections: readonly CompatCorrection[] = declaredCorrections,
): CompatReport {
  const releasedVersion = String((released.info as Json | undefined)?.version);
  const corrected = new Set(corrections.filter((c) => c.released === releasedVersion).flatMap((c) => c.where));
  const before = comparable(released);
  const { diffs } = apiCompare(structuredClone(before), comparable(current));
  const breaking: BreakingChange[] = [];
  const sunsetRemovals: BreakingChange[] = [];
  const allowed: BreakingChange[] = [];
  const seen = new Set<string>();
  for (const diff of diffs) {
    if (diff.type !== "breaking") continue;
    const path = diff.path as readonly unknown[];
    if (path[0] !== "paths" && path[0] !== "webhooks") continue;
    if (guaranteesMore({ action: diff.action, path })) continue;
    const change = { where: whereOf(path), description: (diff.description ?? "").trim() || `${diff.action} ${path.join("/")}` };
    const key = `${change.where}\n${change.description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (corrected.has(change.where)) allowed.push(change);
    else (sunsetPassed(before, path, today) ? sunsetRemovals : breaking).push(change);
  }
  return { breaking, sunsetRemovals, corrections: allowed, deprecationErrors: deprecationErrors(current) };
}
