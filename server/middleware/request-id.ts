import type { RequestHandler } from "express";
import { randomBase62 } from "../lib/ids.ts";
import type { Logger } from "../logger.ts";
import { surfaceOf } from "../spec/operations.ts";

const CALLER_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Assigns the request id (a well-formed caller `X-Request-Id` is kept), a child logger, and logs each response. */
export function requestIdAndLogger(logger: Logger): RequestHandler {
  return function requestIdAndLoggerMiddleware(req, res, next) {
    const incoming = req.get("x-request-id");
    const requestId = incoming && CALLER_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
    res.setHeader("X-Request-Id", requestId);
    const log = logger.child({ requestId });
    req.ctx = { requestId, surface: surfaceOf(req.path), log, params: {} };
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          organizationId: req.ctx.auth?.organizationId,
          apiKeyId: req.ctx.auth?.apiKeyId,
        },
        "request",
      );
    });
    next();
  };
}
