// Layers under server/ only point down (issues 15 and 28; the map is docs/architecture.md, "Layer map"). Run by `npm run lint` (and so in CI):
//   npx depcruise server --config .dependency-cruiser.cjs
// A module may import its own layer and any layer below it, never one above. Imports are read with their types
// (tsPreCompilationDeps), so a type-only import upward is a violation too. test/, scripts/, bench/ and examples/ are
// not layered (they may import anything in server/), but server/ never imports them.

/** Top to bottom: the six parts of issue 28, named as docs/architecture.md ("Layer map") names them, each with its
 * folders under server/. `path` is a regular expression on the module's path from the repository root; `folders` says
 * the same in words, and test/unit/layer-map.test.ts checks it against both the regular expression and the docs. */
const LAYERS = [
  // The Express app and what a request passes through: the process entry files that wire everything below, the route
  // table (routes/), the request pipeline with API-key and session authentication and the rate limit (middleware/,
  // rate-limit/), and the response helpers (http/).
  {
    name: "http",
    folders: [
      "routes/",
      "middleware/",
      "http/",
      "rate-limit/",
      "main.ts",
      "serve.ts",
      "app.ts",
      "admin-token.ts",
      "first-owner.ts",
      "webhook-secrets-key.ts",
      "startup-failure.ts",
      "startup-progress.ts",
      "start-hints.ts",
    ],
    path: "^server/((routes|middleware|http|rate-limit)/|(main|serve|app|admin-token|first-owner|webhook-secrets-key|startup-failure|startup-progress|start-hints)\\.ts$)",
  },
  // Work no request waits for: the webhook delivery worker and the due corridor runs; callers of the domain.
  { name: "workers", folders: ["webhooks/", "scheduler/"], path: "^server/(webhooks|scheduler)/" },
  // Business rules, one use case per file; with the pure credential and scope checks (domain/access/) and the context
  // the use cases take (context.ts: who calls, with which scopes, under which Idempotency-Key).
  { name: "domain", folders: ["domain/", "context.ts"], path: "^server/(domain/|context\\.ts$)" },
  // Provider adapters and simulators behind the capability interfaces (providers/capabilities/), and the in-process
  // sandbox EVM (chain/).
  { name: "providers", folders: ["providers/", "chain/"], path: "^server/(providers|chain)/" },
  // Storage: Kysely, the transaction types (Tx, Queryable), the unit of work, migrations, the Idempotency-Key store.
  { name: "data", folders: ["db/", "idempotency/"], path: "^server/(db|idempotency)/" },
  // Leaves everyone may use: errors, generic helpers, config, logger; the generated contract types and the spec's
  // operation table read from them; metrics and tracing.
  {
    name: "base",
    folders: ["lib/", "errors/", "config.ts", "logger.ts", "generated/", "spec/", "observability/"],
    path: "^server/((lib|errors|generated|spec|observability)/|(config|logger)\\.ts$)",
  },
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
      name: "http-not-to-providers",
      severity: "error",
      comment:
        "The HTTP layer reaches providers and the chain only through the domain (issue 28): a provider failure a route must " +
        "recognise is re-exported by the domain (server/domain/providers/provider-failures.ts).",
      from: { path: LAYERS[0].path },
      to: { path: "^server/(providers|chain)/" },
    },
    {
      name: "providers-storage-through-port",
      severity: "error",
      comment:
        "Providers and the chain keep their bookkeeping behind a storage port they declare and the data part implements " +
        "(issue 28: chain/sandbox-chain-log.ts, providers/capabilities/simulated-custody-store.ts); they never import db/ " +
        "(no Queryable, Tx or UnitOfWork outside data). The caller hands them the data part's implementation.",
      from: { path: "^server/(providers|chain)/" },
      to: { path: "^server/db/" },
    },
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
        "Webhooks signing code the delivery worker shares with the SDK's verifier (sdk/src/webhooks/standard-webhooks.ts), and " +
        "the sandbox's pure tables and computations the simulators share with the partner mock (sdk/src/sandbox/: the USD " +
        "rate table, the FX quote), and the pure rules of the wire the server and the partner mock both apply (sdk/src/protocol/: " +
        "the error-code table and error bodies, Idempotency-Key parsing and fingerprint, path-template matching, scopes), and " +
        "the MCP tool layer the /mcp endpoint mounts (sdk/src/mcp/, with the tools generated from the contract), which calls the " +
        "service back over HTTP like any client (docs/agents.md).",
      from: { path: "^server/" },
      to: {
        path: "^(scripts|test|bench|examples|sdk)/",
        pathNot: "^sdk/src/((generated/(openapi|mcp-tools)|webhooks/standard-webhooks)\\.ts$|sandbox/|protocol/|mcp/)",
      },
    },
    {
      name: "shared-sdk-modules-stay-pure",
      severity: "error",
      comment:
        "The pure SDK modules the server shares (sdk/src/protocol/, sdk/src/sandbox/) ship in the SDK package and run in a " +
        "browser with the partner mock: they import only each other, never the server, the rest of the SDK, a package or a " +
        "Node built-in.",
      from: { path: "^sdk/src/(protocol|sandbox)/" },
      to: { pathNot: "^sdk/src/(protocol/|sandbox/)" },
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

// The layer map itself, for test/unit/layer-map.test.ts (which checks docs/architecture.md names the same parts). Not
// enumerable, so dependency-cruiser's validation of the configuration does not see it.
Object.defineProperty(module.exports, "layers", { value: LAYERS, enumerable: false });
