// One metric series as a uPlot line chart (canvas: a year of daily points draws in a few milliseconds). The chart is an
// image to assistive technology, labelled with the series' name and latest value; the figures are in the text around it.
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import uPlot from "uplot";

export interface Point {
  timestamp: string;
  value: number;
}

export function toColumns(points: Point[]): [number[], number[]] {
  const xs = new Array<number>(points.length);
  const ys = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) {
    xs[i] = Date.parse(points[i]!.timestamp) / 1000;
    ys[i] = points[i]!.value;
  }
  return [xs, ys];
}

export function drawChart(element: HTMLElement, label: string, points: Point[], width: number): uPlot {
  return new uPlot(
    {
      width,
      height: 160,
      legend: { show: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [{ stroke: "#555" }, { stroke: "#555", size: 60 }],
      series: [{}, { label, stroke: "#2456c8", width: 2, fill: "rgba(36,86,200,0.08)" }],
    },
    toColumns(points),
    element,
  );
}

export function Chart({ label, points }: { label: string; points: Point[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const chart = drawChart(element, label, points, Math.max(200, element.clientWidth));
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height: 160 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [label, points]);
  return <div ref={ref} className="chart" role="img" aria-label={`${label} chart`} />;
}
