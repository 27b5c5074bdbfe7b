import type { HandlerTable } from "./handler.ts";

export interface HealthState {
  draining: boolean;
}

export function healthHandlers(state: HealthState): HandlerTable {
  return {
    getHealth(_req, res) {
      res.json({ status: "ok" });
    },
    async getReadiness(_req, res, deps) {
      let database: "ok" | "error" = "ok";
      try {
        // Its own bound (READINESS_TIMEOUT_MS, default 2 s): a partitioned database answers 503 here, not a hang.
        await deps.db.ping(deps.config.readinessTimeoutMs);
      } catch {
        database = "error";
      }
      const ready = database === "ok" && !state.draining;
      res
        .status(ready ? 200 : 503)
        .json({ status: state.draining ? "draining" : ready ? "ready" : "not_ready", checks: { database, spec: "ok" } });
    },
  };
}
