// The standalone mock server for partners outside JavaScript: node:http in front of the same engine the msw handlers
// call (engine.ts holds all the logic; the msw handlers only adapt Request/Response), so both answer the same. It needs
// no msw at run time, and skips msw's per-request handler matching, which would cost most of the time here.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MockEngine, type MockEngineOptions } from "./engine.ts";
import { parseRequestBody } from "./request-body.ts";

export interface MockServerOptions extends MockEngineOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  host?: string;
  /** Share an engine (state) with msw handlers in the same process. */
  engine?: MockEngine;
}

export interface MockServer {
  url: string;
  server: Server;
  engine: MockEngine;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  const engine = options.engine ?? new MockEngine(options);
  const server = createServer(async (req, res) => {
    try {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const reads = req.method !== "GET" && req.method !== "HEAD";
      const body = reads ? parseRequestBody(await readBody(req), headers["content-type"] ?? null) : {};
      const result = engine.handle({ method: req.method ?? "GET", url: req.url ?? "/", headers, ...body });
      const payload = result.body === undefined ? "" : JSON.stringify(result.body);
      res.writeHead(result.status, { ...result.headers, "content-length": Buffer.byteLength(payload) });
      res.end(req.method === "HEAD" ? undefined : payload);
    } catch {
      res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: "Mock server error", code: "internal_error", requestId: "req_mock_error" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 4010, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    server,
    engine,
    reset: () => engine.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
