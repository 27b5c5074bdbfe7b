// GET /metrics: the Prometheus text format, behind its own bearer token (METRICS_TOKEN), apart from the API's keys and
// the admin token so a scraper holds no power over the API. Required when NODE_ENV=production (server/config.ts); open
// in local development when unset. Not part of the OpenAPI contract: it is the operator's, like /docs.
import type { RequestHandler } from "express";
import { secretsEqual } from "../domain/access/api-keys.ts";
import type { Metrics } from "../observability/metrics.ts";

export function metricsEndpoint(metrics: Metrics, token: string | undefined): RequestHandler {
  return async (req, res) => {
    if (token !== undefined) {
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!given || !secretsEqual(given, token)) {
        res
          .status(401)
          .setHeader("WWW-Authenticate", 'Bearer realm="metrics"')
          .type("text/plain")
          .send("GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n");
        return;
      }
    }
    try {
      const text = await metrics.scrape();
      res.setHeader("Cache-Control", "no-store");
      res.type(metrics.contentType).send(text);
    } catch (error) {
      req.ctx.log.warn({ err: error }, "metrics scrape failed");
      res.status(503).type("text/plain").send("metrics unavailable\n");
    }
  };
}
