// The metric catalogue (documented in the spec on GET /api/metric/{metricId}). Each metric is computed from the
// activity events of one type.

export interface MetricSpec {
  id: string;
  name: string;
  description: string;
  unit: "usd" | "count";
  aggregation: "sum" | "count";
  area: string;
  eventType: string;
}

const metric = (spec: MetricSpec) => spec;

export const METRIC_CATALOGUE: ReadonlyMap<string, MetricSpec> = new Map(
  [
    metric({
      id: "payments.volume",
      name: "Payments volume",
      description: "Sum of sandbox payment amounts (USD) created in each bucket.",
      unit: "usd",
      aggregation: "sum",
      area: "payments",
      eventType: "payment.created",
    }),
    metric({
      id: "payments.count",
      name: "Payments",
      description: "Number of sandbox payments created in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "payments",
      eventType: "payment.created",
    }),
    metric({
      id: "wallets.created",
      name: "Wallets created",
      description: "Number of sandbox wallets created in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "wallets",
      eventType: "wallet.created",
    }),
    metric({
      id: "bank_transfers.volume",
      name: "Bank transfer volume",
      description: "Sum of bank transfer amounts created in each bucket.",
      unit: "usd",
      aggregation: "sum",
      area: "bank_transfers",
      eventType: "bank_transfer.created",
    }),
    metric({
      id: "corridors.runs",
      name: "Corridor runs",
      description: "Number of corridor workflow runs created in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "corridors",
      eventType: "corridor_run.created",
    }),
    metric({
      id: "custody.transfers",
      name: "Custody transfers",
      description: "Number of custody transfers created in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "custody",
      eventType: "custody_transfer.created",
    }),
    metric({
      id: "treasury.issuance_requests",
      name: "Issuance requests",
      description: "Number of mint and burn requests created in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "treasury",
      eventType: "issuance_request.created",
    }),
    metric({
      id: "cards.funding.volume",
      name: "Card funding volume",
      description: "Sum of card funding amounts in each bucket.",
      unit: "usd",
      aggregation: "sum",
      area: "cards",
      eventType: "card.funded",
    }),
    metric({
      id: "compliance.screenings",
      name: "Screenings",
      description: "Number of screening decisions in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "compliance",
      eventType: "compliance.screened",
    }),
    metric({
      id: "providers.invocations",
      name: "Provider invocations",
      description: "Number of provider invocations in each bucket.",
      unit: "count",
      aggregation: "count",
      area: "providers",
      eventType: "provider.invoked",
    }),
  ].map((m) => [m.id, m]),
);
