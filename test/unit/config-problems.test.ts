// Every problem in the settings is reported at once (server/config.ts): an operator fixes a deployment in one pass,
// not one restart per variable.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, loadServerConfig } from "../../server/config.ts";

function problemsOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration problems, all at once", () => {
  it("names every invalid value in one error", () => {
    const problems = problemsOf(() =>
      loadConfig({
        PORT: "eighty",
        DATABASE_POOL_SIZE: "0",
        WEBHOOK_SANDBOX_PRIVATE_TARGETS: "yes",
        OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      }),
    );
    expect(problems).toEqual([
      'PORT must be an integer ≥ 0, got "eighty"',
      'DATABASE_POOL_SIZE must be an integer ≥ 1, got "0"',
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "collector:4318"',
      'WEBHOOK_SANDBOX_PRIVATE_TARGETS must be true or false, got "yes"',
    ]);
  });

  it("in production, names every missing secret together with the invalid values", () => {
    const problems = problemsOf(() => loadServerConfig({ NODE_ENV: "production", REQUEST_TIMEOUT_MS: "5" }));
    expect(problems).toEqual([
      'REQUEST_TIMEOUT_MS must be an integer ≥ 1000, got "5"',
      "DATABASE_URL, ADMIN_TOKEN, WEBHOOK_SECRETS_KEY and METRICS_TOKEN must be set when NODE_ENV=production (DATABASE_URL: postgresql://… or an explicit pglite:<dir>)",
    ]);
    expect(
      problemsOf(() => loadServerConfig({ NODE_ENV: "production", DATABASE_URL: "pglite:./prod", ADMIN_TOKEN: "a", METRICS_TOKEN: "m" })),
    ).toEqual(["WEBHOOK_SECRETS_KEY must be set when NODE_ENV=production"]);
  });

  it("outside production nothing is required; the endpoint's trailing slash is dropped", () => {
    const config = loadServerConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(config.tracing).toEqual({ otlpEndpoint: "http://collector:4318", serviceName: "coinplane" });
    expect(config.metricsToken).toBeUndefined();
    expect(config.migrateOnStart).toBe(true);
  });
});
