// Layers under server/ only point down (issue 15; the map is docs/architecture.md). Run by `npm run lint` (and so in CI):
//   npx depcruise server --config .dependency-cruiser.cjs
// A module may import its own layer and any layer below it, never one above. Imports are read with their types
// (tsPreCompilationDeps), so a type-only import upward is a violation too. test/, scripts/, bench/ and examples/ are
// not layered (they may import anything in server/), but server/ never imports them.

/** Top to bottom. `path` is a regular expression on the module's path from the repository root. */
const LAYERS = [
  // Process entry and the Express app: wires everything below.
  { name: "entry", path: "^server/(main|serve|app|admin-token|first-owner|webhook-secrets-key|startup-failure|startup-progress)\\.ts$" },
  // The route table: one typed handler per operationId (route.ts, dispatch.ts, *-handlers.ts).
  { name: "routes", path: "^server/routes/" },
  // HTTP plumbing that knows no route: the request pipeline (middleware/) and the response helpers (http/).
  { name: "http", path: "^server/(http|middleware)/" },
  // Due corridor runs, dispatched by the in-process timer and by POST corridor/workflows/dispatch; and the webhook
  // delivery worker (server/webhooks/: claims due deliveries, signs and sends them), a caller of the domain like it.
  { name: "scheduler", path: "^server/(scheduler|webhooks)/" },
  // Business rules: one use case per file.
  { name: "domain", path: "^server/domain/" },
  // Provider adapters and simulators behind the capability interfaces in providers/capabilities/.
  { name: "providers", path: "^server/providers/" },
  // The in-process sandbox EVM and its transaction log.
  { name: "chain", path: "^server/chain/" },
  // What a request carries and checks: its context, API keys, Idempotency-Key, rate limits, the spec's operations.
  { name: "request-context", path: "^server/((auth|idempotency|rate-limit|spec)/|context\\.ts$)" },
  // Kysely, the transaction type (Tx, Queryable), the unit of work, migrations.
  { name: "db", path: "^server/db/" },
  // Leaves everyone may use: errors and the failure classifier, ids, generated types, config, logger, metrics and tracing.
  { name: "foundation", path: "^server/((errors|lib|generated|observability)/|(config|logger)\\.ts$)" },
];

const layerRules = LAYERS.slice(1).map((layer, index) => ({
  name: `${layer.name}-points-down`,
  severity: "error",
  comment: `server/ layer "${layer.name}" may not import a layer above it (${LAYERS.slice(0, index + 1)
    .map((above) => above.name)
    .join(", ")}); move the shared piece down instead.`,
  from: { path: layer.path },
  to: { path: LAYERS.slice(0, index + 1).map((above) => above.path) },
}));

/** One surface's routes: server/routes/<area>-handlers.ts. Every other file in server/routes is shared plumbing
 * (route.ts, dispatch.ts, helpers such as respond-or-503.ts). */
const ROUTE_FILE = "^server/routes/[^/]+-handlers\\.ts$";

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "providers-not-to-domain",
      severity: "error",
      comment:
        "Provider adapters implement the capability interfaces in server/providers/capabilities; they never reach into the " +
        "domain that calls them (types they need live in capabilities/).",
      from: { path: "^server/providers/" },
      to: { path: "^server/domain/" },
    },
    {
      name: "lib-imports-only-lib",
      severity: "error",
      comment: "server/lib holds generic helpers (ids, worker pool) with no knowledge of the service.",
      from: { path: "^server/lib/" },
      to: { path: "^server/", pathNot: "^server/lib/" },
    },
    {
      name: "no-sideways-route-files",
      severity: "error",
      comment:
        "Nothing in server/routes imports a route file (<area>-handlers.ts; app.ts lists them): what two surfaces share " +
        "belongs in the domain, or in a shared module of server/routes.",
      from: { path: "^server/routes/" },
      to: { path: ROUTE_FILE },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle means two modules are one concern or a shared piece sits in the wrong one; split it out.",
      // The generated Prisma client's internal cycles are not ours to shape.
      from: { path: "^server/", pathNot: "^server/generated/" },
      to: { circular: true },
    },
    {
      name: "server-not-to-tools",
      severity: "error",
      comment:
        "The service does not import its tools or tests (scripts/, test/, bench/, examples/, sdk/); the one exception is the " +
        "contract's generated types, shared by server and SDK (server/generated/openapi.ts re-exports them), and the Standard " +
        "Webhooks signing code the delivery worker shares with the SDK's verifier (sdk/src/webhooks/standard-webhooks.ts).",
      from: { path: "^server/" },
      to: { path: "^(scripts|test|bench|examples|sdk)/", pathNot: "^sdk/src/(generated/openapi|webhooks/standard-webhooks)\\.ts$" },
    },
    {
      name: "server-not-to-dev-dependencies",
      severity: "error",
      comment: "A production install has no devDependencies; the service may use them for types only.",
      from: { path: "^server/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^server/generated/prisma/"] },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: a type imported upward ties the layers together just as a value does.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
