// GET /metrics (Prometheus text format, prom-client). What the request path records costs one histogram observation per
// response (a series bound per operation and status class, observed without looking at labels: labelled-histogram.ts),
// one per connection checkout (the pool wait, bound the same way) and one counter increment per rejection. Everything else is read when Prometheus scrapes: gauges with a `collect` that asks the
// pool, the queues or the database at that moment.
import client, { type Registry } from "prom-client";
import { LabelledHistogram } from "./labelled-histogram.ts";

export type Rejection = "rate_limited" | "unauthenticated" | "auth_failures_limited";

export interface Metrics {
  registry: Registry;
  /** One finished request: `operation` is the spec's operationId (or `unmatched`/`static`). */
  requestFinished(operation: string, status: number, seconds: number): void;
  rejected(reason: Rejection, operation: string): void;
  /** One MCP tool call (/mcp): the tool's name and its outcome (ok, refused, error, unknown_tool). */
  mcpToolCall(tool: string, outcome: string): void;
  /** Time a request waited for a pooled database connection. */
  poolWait(seconds: number): void;
  /** How late a webhook attempt started after it was due. */
  webhookAttemptLag(seconds: number): void;
  /** A gauge read at scrape time; `read` returns one value, or one per label set. */
  gauge(name: string, help: string, read: () => Promise<number>): void;
  labelledGauge(name: string, help: string, labelNames: string[], read: () => LabelledValues | Promise<LabelledValues>): void;
  /** The text a scrape returns: this registry and the process's (event loop, memory, CPU, GC). */
  scrape(): Promise<string>;
  contentType: string;
}

export type LabelledValues = Array<{ labels: Record<string, string>; value: number }>;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];
const LAG_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600];

// Node's own figures (event-loop delay, heap, CPU, GC) are per process, not per app: one registry, started on first use.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  processMetrics();
  const requests = new LabelledHistogram(
    "coinplane_http_request_duration_seconds",
    "Requests by operation (the spec's operationId) and status class; _count is the request count.",
    ["operation", "status_class"],
    LATENCY_BUCKETS,
    registry,
  );
  const rejections = new client.Counter({
    name: "coinplane_rejections_total",
    help: "Requests refused by a rate limit (rate_limited), for a missing or wrong credential (unauthenticated), or because the address spent its failure budget (auth_failures_limited).",
    labelNames: ["reason", "operation"],
    registers: [registry],
  });
  // Observed on every connection checkout, so bound once like the response histogram (prom-client's own observe
  // validates and hashes an empty label object each time).
  const poolWait = new LabelledHistogram(
    "coinplane_db_pool_wait_seconds",
    "Time spent waiting for a PostgreSQL connection from this process's pool.",
    [],
    WAIT_BUCKETS,
    registry,
  ).bind();
  const webhookLag = new client.Histogram({
    name: "coinplane_webhook_attempt_lag_seconds",
    help: "How long after it was due a webhook delivery attempt started (commit to first attempt, or scheduled retry to attempt).",
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  const mcpToolCalls = new client.Counter({
    name: "coinplane_mcp_tool_calls_total",
    help: "MCP tool calls on /mcp by tool and outcome (ok; refused: the API answered an error; error: it could not be reached; unknown_tool).",
    labelNames: ["tool", "outcome"],
    registers: [registry],
  });
  return {
    registry,
    contentType: registry.contentType,
    requestFinished(operation, status, seconds) {
      const cls = statusClass(status);
      requests.bind(operation, cls).observe(seconds);
    },
    rejected(reason, operation) {
      rejections.inc({ reason, operation });
    },
    mcpToolCall(tool, outcome) {
      mcpToolCalls.inc({ tool, outcome });
    },
    poolWait(seconds) {
      poolWait.observe(seconds);
    },
    webhookAttemptLag(seconds) {
      webhookLag.observe(seconds);
    },
    gauge(name, help, read) {
      new client.Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          // A source that cannot answer (the database down) reports NaN, never a made-up zero.
          this.set(await read().catch(() => Number.NaN));
        },
      });
    },
    labelledGauge(name, help, labelNames, read) {
      new client.Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          for (const { labels, value } of await Promise.resolve(read()).catch(() => [])) this.set(labels, value);
        },
      });
    },
    async scrape() {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
  };
}
