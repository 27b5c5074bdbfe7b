import type { MetricRange } from "../domain/metrics/buckets.ts";
import { getMetric } from "../domain/metrics/get-metric.ts";
import { authOf, type HandlerTable, param } from "./handler.ts";

export const metricHandlers: HandlerTable = {
  async getMetric(req, res, deps) {
    const range = ((req.query as { range?: string }).range ?? "30d") as MetricRange;
    res.json(await getMetric({ db: deps.db.kysely, auth: authOf(req), metricId: param(req, "metricId"), range }));
  },
};
