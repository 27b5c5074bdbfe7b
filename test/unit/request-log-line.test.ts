// The response line every request logs (server/middleware/request-id.ts) is written without the redaction pass, which
// is safe only while its fields stay the fixed, secret-free set below; every other line still goes through it.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { requestIdAndLogger } from "../../server/middleware/request-id.ts";
import { createMetrics } from "../../server/observability/metrics.ts";

const lines: Array<Record<string, unknown>> = [];
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = express();
  app.use(requestIdAndLogger(logger, createMetrics()));
  app.post("/api/v1/echo", (req, res) => {
    req.ctx.log.info({ key: "cp_sandbox_secret", adminToken: "admin-secret", nested: { key: "nested-secret" } }, "handler line");
    res.status(201).json({ ok: true });
  });
  const listener = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
});
afterAll(() => close?.());

describe("the response line", () => {
  it("carries exactly its fixed fields, the request's own values, and is written once per request", async () => {
    const res = await fetch(`${url}/api/v1/echo?key=query-secret`, { method: "POST", headers: { "x-request-id": "req_caller_given_1" } });
    expect(res.status).toBe(201);
    await res.arrayBuffer();
    const responseLines = lines.filter((line) => line.msg === "request");
    expect(responseLines).toHaveLength(1);
    const line = responseLines[0] as Record<string, unknown>;
    // A field added here is a field written unredacted: it must be one that can never carry a secret.
    expect(Object.keys(line).sort()).toEqual(["durationMs", "level", "method", "msg", "path", "requestId", "status", "time"]);
    expect(line).toMatchObject({ requestId: "req_caller_given_1", method: "POST", path: "/api/v1/echo", status: 201 });
    expect(line.durationMs).toBeGreaterThan(0);
    expect(line.durationMs).toBeLessThan(5_000);
  });

  it("leaves every other line redacted", () => {
    const handlerLine = lines.find((line) => line.msg === "handler line");
    expect(handlerLine).toMatchObject({
      requestId: "req_caller_given_1",
      key: "[redacted]",
      adminToken: "[redacted]",
      nested: { key: "[redacted]" },
    });
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });
});
