import { getMetric } from "../domain/metrics/get-metric.ts";
import { type Routes, route } from "./route.ts";

export const metricRoutes: Routes = [
  route("getMetric", async ({ path, query, auth, deps }) => ({
    status: 200,
    body: await getMetric(deps.db.kysely, { auth, metricId: path.metricId, range: query.range ?? "30d" }),
  })),
];
