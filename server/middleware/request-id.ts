import type { RequestHandler } from "express";
import { randomBase62 } from "../lib/ids.ts";
import type { Logger } from "../logger.ts";
import { surfaceOf } from "../spec/operations.ts";

const CALLER_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Assigns the request id (a well-formed caller `X-Request-Id` is kept), a logger bound to it, and logs each response.
 * The bound (child) logger is made only when something logs through it: most requests log only their response line,
 * which carries the request id itself. */
export function requestIdAndLogger(logger: Logger): RequestHandler {
  return function requestIdAndLoggerMiddleware(req, res, next) {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && CALLER_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
    res.setHeader("X-Request-Id", requestId);
    let log: Logger | undefined;
    req.ctx = {
      requestId,
      surface: surfaceOf(req.path),
      get log() {
        log ??= logger.child({ requestId });
        return log;
      },
      params: {},
    };
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info(
        {
          requestId,
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
