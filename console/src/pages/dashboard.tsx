// Every metric of the catalogue (read from the contract) as a chart, over 7d / 30d / 90d / 1y (in the URL), each with
// its source (live or sample) and its latest value.
import { useSearchParams } from "react-router";
import { formatMoney } from "../api/amounts.ts";
import { api, unwrap } from "../api/client.ts";
import { loadSpec, metricCatalogue } from "../api/spec.ts";
import { useLoad } from "../api/use-load.ts";
import { Chart } from "../components/chart.tsx";
import { useEnvironment } from "../components/shell.tsx";
import { Empty, ErrorState, Loading } from "../components/states.tsx";

const RANGES = ["7d", "30d", "90d", "1y"] as const;
type Range = (typeof RANGES)[number];

function formatValue(value: number, unit: string): string {
  return unit === "usd" ? formatMoney(value, "USD") : value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

function MetricCard({ metricId, unit, counts, range }: { metricId: string; unit: string; counts: string; range: Range }) {
  const environment = useEnvironment();
  const metric = useLoad(
    () => unwrap(api(environment).GET("/api/metric/{metricId}", { params: { path: { metricId }, query: { range } } })),
    [environment, metricId, range],
  );
  return (
    <section className="card metric" aria-labelledby={`m-${metricId}`}>
      <h2 id={`m-${metricId}`}>{metricId}</h2>
      <p className="muted">{counts}</p>
      {metric.state === "loading" ? <Loading what={metricId} /> : null}
      {metric.state === "error" ? <ErrorState error={metric.error} retry={metric.reload} needs="viewer" /> : null}
      {metric.state === "ok" ? (
        <>
          <p className="figure">
            <span className="value">{formatValue(metric.data.latest.value, unit)}</span>{" "}
            <span className={`badge ${metric.data.source}`}>{metric.data.source}</span>
          </p>
          <Chart label={metricId} points={metric.data.points} />
        </>
      ) : null}
    </section>
  );
}

export function Dashboard() {
  const [params, setParams] = useSearchParams();
  const range = (RANGES as readonly string[]).includes(params.get("range") ?? "") ? (params.get("range") as Range) : "30d";
  const spec = useLoad(loadSpec, []);
  return (
    <>
      <h1>Dashboard</h1>
      <fieldset className="segmented">
        <legend className="visually-hidden">Range</legend>
        {RANGES.map((r) => (
          <button key={r} type="button" aria-pressed={r === range} onClick={() => setParams({ range: r })}>
            {r}
          </button>
        ))}
      </fieldset>
      {spec.state === "loading" ? <Loading what="the metric catalogue" /> : null}
      {spec.state === "error" ? <ErrorState error={spec.error} retry={spec.reload} /> : null}
      {spec.state === "ok" ? (
        metricCatalogue(spec.data).length === 0 ? (
          <Empty>The contract lists no metrics.</Empty>
        ) : (
          <div className="grid">
            {metricCatalogue(spec.data).map((m) => (
              <MetricCard key={m.metricId} {...m} range={range} />
            ))}
          </div>
        )
      ) : null}
    </>
  );
}
