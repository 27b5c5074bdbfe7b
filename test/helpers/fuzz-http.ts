// Sends fuzz requests with node:http rather than fetch: the request line goes out verbatim (fetch would normalize `..`
// and re-encode the path), header lines can repeat, and bodies can be any bytes.
import http from "node:http";
import type { FuzzRequest } from "./fuzz-requests.ts";

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
  /** Set when the client could not send the request at all (the runner reports it). */
  clientError?: string;
}

export interface Credentials {
  sandbox: string;
  production: string;
  admin: string;
  scheduler: string;
  /** A member's session (cookie and same-origin headers), for the operations only a session may call. */
  session?: { cookie: string; origin: string };
}

export function createSender(baseUrl: string, credentials: Credentials, concurrency: number) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  function send(request: FuzzRequest): Promise<FuzzResponse> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of request.headers) {
      const existing = headers[name];
      headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
    if (request.credential === "sandbox" || request.credential === "production" || request.credential === "admin") {
      headers.authorization = `Bearer ${credentials[request.credential]}`;
    } else if (request.credential === "scheduler") {
      headers["x-scheduler-secret"] = credentials.scheduler;
    } else if (request.credential === "session" && credentials.session) {
      headers.cookie = credentials.session.cookie;
      headers.origin = credentials.session.origin;
    }
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, "utf8");
    if (body) headers["content-length"] = String(body.length);
    return new Promise((resolve) => {
      let req: http.ClientRequest;
      try {
        req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
          res.on("error", (error) => resolve({ status: 0, headers: {}, text: "", json: undefined, clientError: String(error) }));
        });
      } catch (error) {
        // node:http refuses some header values or paths before sending (e.g. control characters): not a server finding.
        resolve({ status: -1, headers: {}, text: "", json: undefined, clientError: String(error) });
        return;
      }
      req.on("error", (error) => resolve({ status: 0, headers: {}, text: "", json: undefined, clientError: String(error) }));
      req.end(body);
    });
  }

  return { send, close: () => agent.destroy() };
}
