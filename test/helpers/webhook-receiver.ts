// A real local HTTP receiver for webhook tests: records every request (path, headers, raw body, arrival time) and
// answers per path with what the test scripted (a status, a delay, a redirect). Listens on 127.0.0.1 (sandbox endpoints
// may target it; production ones may not).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Receipt {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** What a path answers to its n-th request (0-based), which is `receipt`. */
export type Script = (n: number, receipt: Receipt) => Answer;

export interface WebhookReceiver {
  url: string;
  receipts: Receipt[];
  /** Receipts of one path. */
  at(path: string): Receipt[];
  /** Scripts a path (default: 200). */
  on(path: string, script: Script): void;
  /** Resolves once `path` has at least `count` receipts (or rejects after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Receipt[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receipts: Receipt[] = [];
  const scripts = new Map<string, Script>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const receipt = { path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() };
      receipts.push(receipt);
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const answer: Answer = (scripts.get(path) ?? (() => ({ status: 200 })))(n, receipt);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers).end("ok");
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  // The worker's keep-alive sockets must not hold close() open.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const at = (path: string) => receipts.filter((r) => r.path === path);
  return {
    url,
    receipts,
    at,
    on: (path, script) => scripts.set(path, script),
    async waitFor(path, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (at(path).length < count) {
        if (Date.now() > deadline) throw new Error(`receiver: ${at(path).length} of ${count} requests to ${path} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return at(path);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
