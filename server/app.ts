// createApp builds the Express application; main.ts owns listening and shutdown.
// Request path, in order: request id + logger → Cache-Control: no-store (/api) → body parser → route match (the
// validator's, once) → operation lookup → authentication → rate limit → refused body (400/413) → OpenAPI validation → scope check → idempotency → handler → error middleware.
import express, { type Express } from "express";
import helmet from "helmet";
import "./context.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/open-database.ts";
import { intentBacklog } from "./db/provider-intents.ts";
import { compilerStats } from "./domain/contracts/compile-solidity.ts";
import { consoleApp } from "./http/console-app.ts";
import { docsPortal } from "./http/docs-portal.ts";
import { InFlightRequests } from "./http/in-flight.ts";
import { mcpEndpoint } from "./http/mcp-endpoint.ts";
import { metricsEndpoint } from "./http/metrics-endpoint.ts";
import { pipeline } from "./http/pipeline.ts";
import { requestDeadline } from "./http/request-deadline.ts";
import { staticHeaders } from "./http/static-headers.ts";
import type { Logger } from "./logger.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { bodyErrors } from "./middleware/body-errors.ts";
import { jsonBodyParser } from "./middleware/body-parser.ts";
import { deprecationHeaders } from "./middleware/deprecation-headers.ts";
import { errorHandler } from "./middleware/error-handler.ts";
import { idempotency } from "./middleware/idempotency.ts";
import { type KeyUsageRecorder, keyUsageRecorder } from "./middleware/key-usage.ts";
import { noStore } from "./middleware/no-store.ts";
import { openapiValidation } from "./middleware/openapi-validator.ts";
import { operationLookup } from "./middleware/operation-lookup.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { requestIdAndLogger } from "./middleware/request-id.ts";
import { requireScope } from "./middleware/require-scope.ts";
import { signInThrottle } from "./middleware/sign-in-throttle.ts";
import { createMetrics, type Metrics } from "./observability/metrics.ts";
import type { RateLimiter } from "./rate-limit/rate-limiter.ts";
import { adminRoutes } from "./routes/admin-handlers.ts";
import { approvalRoutes } from "./routes/approval-handlers.ts";
import { cardRoutes } from "./routes/card-handlers.ts";
import { complianceRoutes } from "./routes/compliance-handlers.ts";
import { contractRoutes } from "./routes/contract-handlers.ts";
import { custodyRoutes } from "./routes/custody-handlers.ts";
import { dispatch } from "./routes/dispatch.ts";
import { type HealthState, healthRoutes } from "./routes/health-handlers.ts";
import { memberRoutes } from "./routes/member-handlers.ts";
import { metricRoutes } from "./routes/metric-handlers.ts";
import { paymentRoutes } from "./routes/payment-handlers.ts";
import { providerRoutes } from "./routes/provider-handlers.ts";
import type { Routes } from "./routes/route.ts";
import { treasuryRoutes } from "./routes/treasury-handlers.ts";
import { v1Routes } from "./routes/v1-handlers.ts";
import { webhookRoutes } from "./routes/webhook-handlers.ts";
import { loadSpec, loadSpecYaml, type OpenApiDocument } from "./spec/load-spec.ts";
import { OperationIndex } from "./spec/operations.ts";
import { webhookQueueDepth } from "./webhooks/claim-deliveries.ts";

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  rateLimiter: RateLimiter;
  spec?: OpenApiDocument;
  health?: HealthState;
  /** GET /metrics (server/observability/metrics.ts); a new registry when not given. */
  metrics?: Metrics;
}

export interface App {
  app: Express;
  health: HealthState;
  inFlight: InFlightRequests;
  metrics: Metrics;
  /** API keys' "last used", written off the request path (flush it before closing the database). */
  keyUsage: KeyUsageRecorder;
}

/** The gauges read at scrape time: the database pool, the compiler pool's queue, the webhook queue, the reconciler's
 * backlog. */
function registerGauges(metrics: Metrics, db: Database): void {
  metrics.labelledGauge(
    "coinplane_db_pool_connections",
    "PostgreSQL pool of this process: max, open, idle, and requests waiting for a connection (absent on PGlite).",
    ["state"],
    async () => {
      const pool = db.poolState();
      if (!pool) return [];
      return Object.entries(pool).map(([state, value]) => ({ labels: { state }, value }));
    },
  );
  metrics.labelledGauge("coinplane_compile_pool", "Solidity compiler workers: size, busy, and compiles queued.", ["state"], async () =>
    Object.entries(compilerStats()).map(([state, value]) => ({ labels: { state }, value })),
  );
  metrics.labelledGauge(
    "coinplane_webhook_queue_depth",
    "Webhook deliveries pending: due now (waiting for a worker) and scheduled for a later retry.",
    ["state"],
    async () => {
      const depth = await webhookQueueDepth(db.kysely, new Date());
      return [
        { labels: { state: "due" }, value: depth.due },
        { labels: { state: "scheduled" }, value: depth.scheduled },
      ];
    },
  );
  metrics.labelledGauge(
    "coinplane_provider_intents",
    "Provider writes not settled yet (server/domain/reconcile/): open, and due (past their deadline: the reconciler's backlog).",
    ["state"],
    async () => {
      const backlog = await intentBacklog(db.kysely, new Date());
      return [
        { labels: { state: "open" }, value: backlog.open },
        { labels: { state: "due" }, value: backlog.due },
      ];
    },
  );
}

export function createApp(deps: AppDeps): App {
  const { config, db, logger, rateLimiter } = deps;
  const spec = deps.spec ?? loadSpec();
  const specYaml = loadSpecYaml();
  const index = new OperationIndex(spec);
  const health = deps.health ?? { draining: false };
  const metrics = deps.metrics ?? createMetrics();
  registerGauges(metrics, db);
  const routes: Routes = [
    ...v1Routes,
    ...metricRoutes,
    ...adminRoutes,
    ...healthRoutes(health),
    ...complianceRoutes,
    ...approvalRoutes,
    ...providerRoutes,
    ...paymentRoutes,
    ...custodyRoutes,
    ...contractRoutes,
    ...treasuryRoutes,
    ...cardRoutes,
    ...webhookRoutes,
    ...memberRoutes,
  ];

  const inFlight = new InFlightRequests();
  const keyUsage = keyUsageRecorder(db.kysely, (error) => logger.warn({ err: (error as Error).message }, "API key last use not recorded"));
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  // The validator's route match (the only one per request, see operationLookup) reads these; paths are case-sensitive
  // as in the spec, and a trailing slash is accepted.
  app.set("case sensitive routing", true);
  app.set("strict routing", false);
  app.set("trust proxy", config.trustProxy);
  // Three layers for Express's router to walk instead of two dozen (server/http/pipeline.ts): what every request
  // gets, the pages beside the API (skipped by /api/ paths, which none of them serve), and the API's steps.
  app.use(
    pipeline([
      inFlight.middleware(),
      requestIdAndLogger(logger, metrics),
      requestDeadline(config.requestTimeoutMs),
      noStore(),
      staticHeaders(helmet()),
    ]),
  );
  const pages = express.Router();
  pages.get("/openapi.json", (_req, res) => {
    res.json(spec);
  });
  pages.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(specYaml);
  });
  pages.get(["/docs", "/docs/"], docsPortal());
  pages.use("/console", consoleApp());
  pages.get("/metrics", metricsEndpoint(metrics, config.metricsToken));
  // Agents (docs/agents.md): MCP tools generated from the contract, each call a REST call with the caller's key.
  pages.use(mcpEndpoint({ db: db.kysely, config, rateLimiter, metrics }));
  app.use(function pagesBesideTheApi(req, res, next) {
    if (req.path.startsWith("/api/")) return next();
    pages(req, res, next);
  });
  const validation = openapiValidation(spec, config.validateResponses);
  app.use(
    pipeline([
      jsonBodyParser(config.bodyLimitBytes),
      operationLookup(index, validation.match),
      deprecationHeaders(),
      authenticate(db.kysely, config, rateLimiter.authFailures, keyUsage),
      rateLimit(rateLimiter),
      bodyErrors(),
      ...validation.validate,
      requireScope(),
      signInThrottle(rateLimiter.signIn),
      idempotency(),
      dispatch(routes, { db, config }, inFlight),
    ]),
  );
  app.use(errorHandler());
  return { app, health, inFlight, metrics, keyUsage };
}
