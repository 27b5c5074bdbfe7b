// The port is taken first, before the database opens and the app loads: a busy port ends the start within a moment,
// not after the migrations. Until the app is attached, every request answers 503 with Retry-After (liveness and
// readiness included: a probe sees the process start, not a half-built app).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface EarlyListener {
  server: Server;
  /** Hands every later request to `handler` (the Express app). */
  attach(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
}

function starting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { "content-type": "application/json", "retry-after": "1", "cache-control": "no-store" });
  res.end('{"status":"starting"}');
}

/** Resolves once listening; rejects with the listen error (EADDRINUSE, EACCES). */
export function listenEarly(port: number, host: string): Promise<EarlyListener> {
  const server = createServer(starting);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        server,
        attach(handler) {
          server.off("request", starting);
          server.on("request", handler);
        },
      });
    });
  });
}
