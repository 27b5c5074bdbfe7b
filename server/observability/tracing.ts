// OpenTelemetry traces, through the Node SDK and its http, express, pg and ioredis instrumentations, exported over
// OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set. Unset, nothing here loads and requests carry no tracing cost.
//
// The service is ESM: a package is patched only when its import passes through import-in-the-middle's loader hook, so
// the hook is registered and the SDK started before the server's modules are imported (server/main.ts imports them
// afterwards, dynamically). The hook wraps only the modules an instrumentation asked for (the message channel).
import { register } from "node:module";
import type { Span } from "@opentelemetry/api";
import type { TracingConfig } from "../config.ts";

// The http instrumentation's server span, kept on the request it belongs to: the active span inside a middleware is the
// express instrumentation's span of that middleware, not the request's.
const SERVER_SPAN = Symbol("coinplane.serverSpan");

/** The request's server span when tracing is on; undefined otherwise (one property read). */
export function serverSpanOf(req: object): Span | undefined {
  return (req as { [SERVER_SPAN]?: Span })[SERVER_SPAN];
}

export interface Tracing {
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

export async function startTracing(config: TracingConfig): Promise<Tracing | undefined> {
  if (!config.otlpEndpoint) return undefined;
  const { createAddHookMessageChannel } = await import("import-in-the-middle");
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-express"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/instrumentation-ioredis"),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation({
        requestHook: (span, request) => {
          (request as { [SERVER_SPAN]?: Span })[SERVER_SPAN] = span;
        },
      }),
      new ExpressInstrumentation(),
      // Statement text is recorded (db.query.text) with its placeholders; parameter values are not.
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
    ],
    // Traces only: metrics are prom-client's (GET /metrics), logs are pino's JSON lines carrying the trace id.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}
