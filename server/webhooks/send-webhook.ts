// One HTTP attempt of a webhook: POST the signed envelope, judge the answer. 2xx is success; a redirect is a failure and
// is not followed (a 3xx could point a production delivery at an internal address); no answer within the attempt
// timeout — connect, send and the receiver's response together — is a timeout. The response body is read up to a small
// cap and discarded: only the status counts. Production endpoints connect only to addresses the address policy just
// checked (pinnedLookup), so a name re-resolved to a private address after the endpoint was created is refused.
import http from "node:http";
import https from "node:https";
import { checkDeliveryUrl, type EndpointEnvironment, pinnedLookup, publicOnly } from "../lib/webhooks/address-policy.ts";

export const USER_AGENT = "Coinplane-Webhooks/1";
/** What is read of a receiver's answer before it is dropped. */
export const RESPONSE_BODY_CAP_BYTES = 16 * 1024;

/** null | timeout | connection_failed | redirect | blocked_address | http_error | signing_failed (WebhookDeliveryAttempt.error). */
export type AttemptError = "timeout" | "connection_failed" | "redirect" | "blocked_address" | "http_error" | "signing_failed";

export interface AttemptResult {
  httpStatus: number | null;
  error: AttemptError | null;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  environment: EndpointEnvironment;
  body: string;
  /** webhook-id, webhook-timestamp, webhook-signature. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Sandbox endpoints may reach private and loopback addresses (config.webhooks.sandboxPrivateTargets). */
  sandboxPrivateTargets: boolean;
}

// Keep-alive sockets per address rule: a request held to public addresses must never reuse a socket a request allowed
// to reach private ones opened to the same host without the address check.
const agents = {
  any: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  publicOnly: {
    http: new http.Agent({ keepAlive: true, lookup: pinnedLookup("production") }),
    https: new https.Agent({ keepAlive: true, lookup: pinnedLookup("production") }),
  },
};

class AttemptTimeout extends Error {}

export async function sendWebhook(request: WebhookRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Address literals never reach a lookup function; sandbox URLs pass unless malformed.
  const options = { sandboxPrivateTargets: request.sandboxPrivateTargets };
  const allowed = checkDeliveryUrl(request.url, request.environment, options);
  if (!allowed.ok) return { httpStatus: null, error: "blocked_address", durationMs: elapsed() };
  const checked = publicOnly(request.environment, options);
  const url = new URL(request.url);
  const transport = url.protocol === "https:" ? https : http;
  const agent = agents[checked ? "publicOnly" : "any"][url.protocol === "https:" ? "https" : "http"];
  const body = Buffer.from(request.body);

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = transport.request(url, {
      method: "POST",
      agent,
      ...(checked ? { lookup: pinnedLookup("production") } : {}),
      headers: {
        ...request.headers,
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": USER_AGENT,
      },
    });
    const timer = setTimeout(() => req.destroy(new AttemptTimeout()), request.timeoutMs);
    // Once the status line arrived the receiver has answered, whatever happens to the rest of its body.
    let answered: Omit<AttemptResult, "durationMs"> | null = null;
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const error: AttemptError | null = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? "redirect" : "http_error";
      answered = { httpStatus: status, error };
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_BODY_CAP_BYTES) {
          // Enough: the status is what counts. Dropping the socket is cheaper than reading a large answer.
          res.destroy();
          finish({ httpStatus: status, error });
        }
      });
      res.on("end", () => finish({ httpStatus: status, error }));
      // An answer cut off after its status line still answered.
      res.on("error", () => finish({ httpStatus: status, error }));
      res.on("close", () => finish({ httpStatus: status, error }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (answered) return finish(answered);
      if (err instanceof AttemptTimeout) return finish({ httpStatus: null, error: "timeout" });
      finish({ httpStatus: null, error: err.code === "EADDRNOTPUBLIC" ? "blocked_address" : "connection_failed" });
    });
    req.end(body);
  });
}

/** Closes idle keep-alive sockets (shutdown, tests). */
export function closeWebhookSockets(): void {
  for (const pair of Object.values(agents)) {
    pair.http.destroy();
    pair.https.destroy();
  }
}
