// Charges each sample of a V8 CPU profile to one stage of a Coinplane request (bench/profile-stages.ts).
//
// The sample's stack is read from the leaf up; the first frame that names a stage decides:
// - a frame of the `pg` driver: the database round trips themselves (send, receive, parse rows), whoever asked;
// - Express's response (res.json/send) or Node's outgoing message writing: the response, serialised and written;
// - Express's router: the walk from one middleware to the next (`next()`);
// - a file under server/: the stage that file belongs to (STAGE_OF_FILE), the libraries it called counted under it;
// - none of these up to the root: what Node, V8 and the libraries do outside any request step (parsing the request,
//   timers, microtasks, the garbage collector).
// Express runs the next middleware from inside `next()`, so without the router rule a middleware would be charged for
// everything after it.

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
}

/** The request's stages, in the order a request meets them (and the table prints them). */
export const STAGE_ORDER = [
  "Node HTTP: parse the request, sockets, timers",
  "in-flight count",
  "request id, response log line, metrics",
  "deadline timer",
  "fixed headers (no-store, helmet's, deprecation)",
  "next() between middleware (Express router, our pipeline)",
  "body parse",
  "operation lookup (route match)",
  "authentication",
  "rate limit",
  "request validation (express-openapi-validator)",
  "scope check",
  "sign-in throttle (passes through)",
  "idempotency: claim and stored answer",
  "dispatch (handler's context)",
  "handler and domain",
  "unit of work and statements (our database layer)",
  "Kysely: build and compile queries",
  "pg: database round trips (send, receive, parse rows)",
  "response: serialise and write",
  "errors",
  "shared helpers (ids, JSON, money)",
  "garbage collector",
  "V8: program, microtasks",
  "other libraries",
  "background jobs (scheduler)",
  "other server code",
] as const;
export type Stage = (typeof STAGE_ORDER)[number];

/** bench/stack-floor.ts's functions that are a stage of their own (by function name; the rest are its handlers). */
const STACK_FLOOR_STAGES: Record<string, Stage> = {
  jsonBody: "body parse",
  validateWithLearnedMatch: "request validation (express-openapi-validator)",
};

/** bench/contract-floor-steps.ts's steps by the stage of the same work in Coinplane (by function name). */
const CONTRACT_FLOOR_STAGES: Record<string, Stage> = {
  requestIdOf: "request id, response log line, metrics",
  logAndCount: "request id, response log line, metrics",
  observe: "request id, response log line, metrics",
  keyRecordOf: "authentication",
  bearer: "authentication",
  hasScope: "scope check",
  spend: "rate limit",
  fingerprintMatches: "idempotency: claim and stored answer",
  watchDeadline: "deadline timer",
  answer: "response: serialise and write",
  admit: "dispatch (handler's context)",
};

/** server/ files by stage; the first pattern that matches the path under server/ wins. */
const STAGE_OF_FILE: [RegExp, Stage][] = [
  [/^(http\/pipeline\.ts|app\.ts)$/, "next() between middleware (Express router, our pipeline)"],
  [/^http\/in-flight\.ts$/, "in-flight count"],
  [/^(middleware\/request-id\.ts|logger\.ts|observability\/)/, "request id, response log line, metrics"],
  [/^http\/request-deadline\.ts$/, "deadline timer"],
  [
    /^(middleware\/no-store\.ts|http\/static-headers\.ts|middleware\/deprecation-headers\.ts)$/,
    "fixed headers (no-store, helmet's, deprecation)",
  ],
  [/^middleware\/(body-parser|body-errors|json-fast-path)\.ts$/, "body parse"],
  [/^http\/send-text\.ts$/, "response: serialise and write"],
  [/^(middleware\/operation-lookup\.ts|spec\/)/, "operation lookup (route match)"],
  [/^(middleware\/(authenticate|key-usage|session-auth)\.ts|domain\/access\/)/, "authentication"],
  [/^(middleware\/rate-limit\.ts|rate-limit\/)/, "rate limit"],
  [/^middleware\/openapi-validator\.ts$/, "request validation (express-openapi-validator)"],
  [/^middleware\/require-scope\.ts$/, "scope check"],
  [/^middleware\/sign-in-throttle\.ts$/, "sign-in throttle (passes through)"],
  [/^(middleware\/idempotency\.ts|idempotency\/|db\/unit-of-work\/idempotency-claim\.ts)/, "idempotency: claim and stored answer"],
  [/^(routes\/dispatch\.ts|routes\/route\.ts|context\.ts)$/, "dispatch (handler's context)"],
  [/^(routes|domain|providers|webhooks|chain)\//, "handler and domain"],
  [/^(db\/|http\/respond-with-unit-of-work\.ts)/, "unit of work and statements (our database layer)"],
  [/^(errors\/|middleware\/error-handler\.ts)/, "errors"],
  [/^lib\//, "shared helpers (ids, JSON, money)"],
  [/^scheduler\//, "background jobs (scheduler)"],
];

export interface StageCharge {
  samples: number;
  /** Samples by the library the stage's own code had called (or "own code" when the leaf was the stage's frame). */
  byLibrary: Map<string, number>;
  /** Samples by leaf function (name, file:line), for PROFILE_DETAIL. */
  byFunction: Map<string, number>;
}

export interface StageCharges {
  busy: number;
  byStage: Map<Stage, StageCharge>;
  unmappedFiles: Set<string>;
}

const packageOf = (url: string): string | undefined => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
const serverFileOf = (url: string): string | undefined => /\/server\/(.+\.ts)$/.exec(url.replace(/\?.*$/, ""))?.[1];
const BODY_PARSER_PACKAGES = new Set(["body-parser", "raw-body", "type-is", "iconv-lite", "media-typer", "content-type", "on-finished"]);
const NODE_HEADER_CALLS = /^(setHeader|getHeader|removeHeader|hasHeader|getHeaders|appendHeader)$/;

/** The stage a cross-cutting frame (driver, response, router) names on its own, whoever called it. */
function crossCuttingStage(frame: CpuProfileNode["callFrame"]): Stage | undefined {
  const pkg = packageOf(frame.url);
  if (pkg === "pg" || pkg === "pg-protocol" || pkg === "pg-pool" || pkg === "pg-types")
    return "pg: database round trips (send, receive, parse rows)";
  if (pkg === "kysely") return "Kysely: build and compile queries";
  // The validator runs partly after its own awaits (no server/ frame above it), and ajv's compiled validators are
  // generated functions (no file): named validateN.
  if (pkg === "express-openapi-validator" || pkg === "ajv" || pkg === "ajv-formats")
    return "request validation (express-openapi-validator)";
  if (frame.url === "" && /^validate\d+$/.test(frame.functionName)) return "request validation (express-openapi-validator)";
  if (pkg && BODY_PARSER_PACKAGES.has(pkg)) return "body parse";
  if (pkg === "pino" || pkg === "sonic-boom" || pkg === "prom-client") return "request id, response log line, metrics";
  if (pkg === "express" && frame.url.endsWith("/lib/response.js")) return "response: serialise and write";
  if (frame.url === "node:_http_outgoing" && !NODE_HEADER_CALLS.test(frame.functionName)) return "response: serialise and write";
  if (pkg === "router" || (pkg === "express" && frame.url.endsWith("/lib/application.js")))
    return "next() between middleware (Express router, our pipeline)";
  return undefined;
}

/** Outside every request step: by what the leaf is. */
function stageOfLeafOnly(leaf: CpuProfileNode["callFrame"]): Stage {
  if (leaf.functionName === "(garbage collector)") return "garbage collector";
  if (leaf.url === "" || leaf.functionName === "(program)" || leaf.functionName === "runMicrotasks") return "V8: program, microtasks";
  if (leaf.url.startsWith("node:")) return "Node HTTP: parse the request, sockets, timers";
  return "other libraries";
}

export function chargeToStages(profile: CpuProfile): StageCharges {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const charges: StageCharges = { busy: 0, byStage: new Map(), unmappedFiles: new Set() };
  const charge = (stage: Stage, library: string, leaf: CpuProfileNode["callFrame"]) => {
    const entry = charges.byStage.get(stage) ?? { samples: 0, byLibrary: new Map<string, number>(), byFunction: new Map<string, number>() };
    charges.byStage.set(stage, entry);
    entry.samples++;
    entry.byLibrary.set(library, (entry.byLibrary.get(library) ?? 0) + 1);
    const where = `${leaf.functionName || "(anonymous)"} ${leaf.url.replace(/^.*\/(node_modules|server)\//, "$1/")}:${leaf.lineNumber + 1}`;
    entry.byFunction.set(where, (entry.byFunction.get(where) ?? 0) + 1);
  };
  // The stage of each leaf node, decided once per node (samples repeat nodes).
  const decided = new Map<number, [Stage, string]>();
  const decide = (leafId: number): [Stage, string] => {
    const leafFrame = (byId.get(leafId) as CpuProfileNode).callFrame;
    const library = serverFileOf(leafFrame.url)
      ? "own code"
      : (packageOf(leafFrame.url) ?? (leafFrame.url.startsWith("node:") ? leafFrame.url : leafFrame.functionName || "V8"));
    for (let id: number | undefined = leafId; id !== undefined; id = parentOf.get(id)) {
      const frame = (byId.get(id) as CpuProfileNode).callFrame;
      const crossCutting = crossCuttingStage(frame);
      if (crossCutting) return [crossCutting, packageOf(frame.url) ?? frame.url];
      // The floors' routes (bench/database-floor.ts, bench/stack-floor.ts) are their handlers; the stack floor's body
      // reader is its body parse, and its validator step's own lines are the validation's.
      if (frame.url.endsWith("/bench/database-floor.ts")) return ["handler and domain", library];
      if (frame.url.endsWith("/bench/stack-floor.ts")) return [STACK_FLOOR_STAGES[frame.functionName] ?? "handler and domain", library];
      // The contract floor's steps (bench/contract-floor-steps.ts), each the stage of the same work in Coinplane.
      if (frame.url.endsWith("/bench/contract-floor-steps.ts")) {
        const stage = CONTRACT_FLOOR_STAGES[frame.functionName];
        if (stage) return [stage, library];
        continue;
      }
      const file = serverFileOf(frame.url);
      if (file) {
        // The in-flight counter wraps res.end: the response written through it is the response's, not the counter's.
        if (file === "http/in-flight.ts" && frame.functionName === "endAndLeave") continue;
        const stage = STAGE_OF_FILE.find(([pattern]) => pattern.test(file))?.[1];
        if (!stage) charges.unmappedFiles.add(file);
        return [stage ?? "other server code", library];
      }
    }
    return [stageOfLeafOnly(leafFrame), library];
  };
  for (const leafId of profile.samples) {
    const leaf = byId.get(leafId) as CpuProfileNode;
    if (leaf.callFrame.functionName === "(idle)") continue;
    charges.busy++;
    const stage = decided.get(leafId) ?? decide(leafId);
    decided.set(leafId, stage);
    charge(stage[0], stage[1], leaf.callFrame);
  }
  return charges;
}
