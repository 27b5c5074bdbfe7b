// LabelledHistogram (server/observability/labelled-histogram.ts) scrapes exactly as prom-client's Histogram does for the
// same observations — text format and JSON — since Prometheus and dashboards read coinplane_http_request_duration_seconds
// by those lines; only the cost of an observation differs.
import client from "prom-client";
import { describe, expect, it } from "vitest";
import { LabelledHistogram } from "../../server/observability/labelled-histogram.ts";

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LABELS = ["operation", "status_class"] as const;

/** Both histograms under one name, each in a registry of its own, fed the same observations. */
function pair() {
  const ours = new client.Registry();
  const theirs = new client.Registry();
  const labelled = new LabelledHistogram("t_request_seconds", "Help with \\ and \n in it.", LABELS, BOUNDS, ours);
  const histogram = new client.Histogram({
    name: "t_request_seconds",
    help: "Help with \\ and \n in it.",
    labelNames: [...LABELS],
    buckets: BOUNDS,
    registers: [theirs],
  });
  const observe = (operation: string, statusClass: string, value: number) => {
    labelled.bind(operation, statusClass).observe(value);
    histogram.labels(operation, statusClass).observe(value);
  };
  return { ours, theirs, labelled, histogram, observe };
}

describe("LabelledHistogram scrapes as prom-client's Histogram", () => {
  it("the text format: cumulative buckets, +Inf, _sum and _count per series, values on and between the bounds", async () => {
    const { ours, theirs, observe } = pair();
    // On a bound (counted in it), between bounds, below the first, above the last (+Inf only), zero.
    for (const value of [0.005, 0.0051, 0.001, 31, 0, 0.3, 2.5, 0.024]) observe("getWallet", "2xx", value);
    observe("getWallet", "4xx", 0.02);
    observe('odd "op"\\name', "5xx", 7);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('t_request_seconds_bucket{le="0.005",operation="getWallet",status_class="2xx"} 3');
    expect(text).toContain('t_request_seconds_bucket{le="+Inf",operation="getWallet",status_class="2xx"} 8');
    expect(text).toContain('t_request_seconds_count{operation="getWallet",status_class="4xx"} 1');
  });

  it("the JSON form, and a series bound before it is observed", async () => {
    const { ours, theirs, labelled, histogram, observe } = pair();
    observe("createPayment", "2xx", 0.07);
    labelled.bind("never", "2xx");
    histogram.zero({ operation: "never", status_class: "2xx" });
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it("without labels (the pool wait): one series, zero before the first observation, as prom-client's", async () => {
    const ours = new client.Registry();
    const theirs = new client.Registry();
    const series = new LabelledHistogram("t_wait_seconds", "Wait.", [], [0.0005, 0.001, 0.005], ours).bind();
    const histogram = new client.Histogram({ name: "t_wait_seconds", help: "Wait.", buckets: [0.0005, 0.001, 0.005], registers: [theirs] });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('t_wait_seconds_bucket{le="+Inf"} 0');
    for (const value of [0.0001, 0.001, 0.02]) {
      series.observe(value);
      histogram.observe(value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('t_wait_seconds_bucket{le="0.001"} 2');
    expect(text).toContain("t_wait_seconds_count 3");
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it("reset zeroes every series; a series bound earlier counts on from zero", async () => {
    const { ours, labelled } = pair();
    const series = labelled.bind("getWallet", "2xx");
    series.observe(0.2);
    ours.resetMetrics();
    series.observe(0.003);
    const text = await ours.metrics();
    expect(text).toContain('t_request_seconds_count{operation="getWallet",status_class="2xx"} 1');
    expect(text).toContain('t_request_seconds_sum{operation="getWallet",status_class="2xx"} 0.003');
  });
});
