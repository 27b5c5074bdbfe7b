// /console/bench/chart: draws a year of daily points (366) with the dashboard's own chart code and shows how long the
// draw took. `npm run bench:console` and the browser test read the figure; it needs no session and calls no API.
import { useEffect, useRef, useState } from "react";
import { drawChart, type Point } from "../components/chart.tsx";

export function yearOfDailyPoints(): Point[] {
  const start = Date.UTC(2025, 10, 27);
  return Array.from({ length: 366 }, (_, i) => ({
    timestamp: new Date(start + i * 86_400_000).toISOString(),
    value: 1000 + 400 * Math.sin(i / 9) + ((i * 7919) % 113),
  }));
}

export function ChartBench() {
  const ref = useRef<HTMLDivElement>(null);
  const [ms, setMs] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const points = yearOfDailyPoints();
    const started = performance.now();
    const chart = drawChart(element, "bench", points, 900);
    setMs(performance.now() - started);
    return () => chart.destroy();
  }, []);
  return (
    <main id="main" className="narrow">
      <h1>Chart benchmark</h1>
      <div ref={ref} role="img" aria-label="A year of daily points" />
      <p>
        Drawn in <output data-testid="chart-ms">{ms === null ? "…" : ms.toFixed(1)}</output> ms
      </p>
    </main>
  );
}
