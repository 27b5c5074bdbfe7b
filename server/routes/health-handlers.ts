import { type Routes, route } from "./route.ts";

export interface HealthState {
  draining: boolean;
}

export function healthRoutes(state: HealthState): Routes {
  return [
    route("getHealth", () => ({ status: 200, body: { status: "ok" } })),
    route("getReadiness", async ({ deps }) => {
      let database: "ok" | "error" = "ok";
      try {
        // Its own bound (READINESS_TIMEOUT_MS, default 2 s): a partitioned database answers 503 here, not a hang.
        await deps.db.ping(deps.config.readinessTimeoutMs);
      } catch {
        database = "error";
      }
      const ready = database === "ok" && !state.draining;
      const status = state.draining ? "draining" : ready ? "ready" : "not_ready";
      return ready
        ? { status: 200, body: { status: "ready", checks: { database, spec: "ok" } } }
        : { status: 503, body: { status, checks: { database, spec: "ok" } } };
    }),
  ];
}
