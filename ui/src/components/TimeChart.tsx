// A small time-series chart drawn by uPlot (docs/decisions.md#the-activity-screen-the-event-bus-and-charts-with-uplot): a few
// series over the last hour, redrawn in place when the data changes. Presentational: the page
// hands it the x values (epoch seconds) and one array per series.

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Drawn as filled bars (counts) rather than a line. */
  bars?: boolean;
}

export function TimeChart({ title, times, series, unit }: { title: string; times: number[]; series: ChartSeries[]; unit?: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const shape = series.map((line) => `${line.label}:${line.bars ? 'b' : 'l'}`).join('|');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt only when its series change shape; new values are drawn by setData below
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height: 120,
      legend: { show: true, live: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [
        { stroke: '#6b7280', grid: { stroke: '#eef0f3' }, ticks: { show: false }, font: '10px sans-serif' },
        { stroke: '#6b7280', grid: { stroke: '#eef0f3' }, ticks: { show: false }, size: 44, font: '10px sans-serif', label: unit },
      ],
      series: [
        {},
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 1.5,
          fill: line.bars ? `${line.color}55` : undefined,
          paths: line.bars ? uPlot.paths.bars?.({ size: [0.8, 12] }) : undefined,
          points: { show: false },
        })),
      ],
    };
    chart.current = new uPlot(options, [times, ...series.map((line) => line.values)] as uPlot.AlignedData, element);
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: Math.max(200, element.clientWidth), height: 120 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [shape]);

  useEffect(() => {
    chart.current?.setData([times, ...series.map((line) => line.values)] as uPlot.AlignedData);
  }, [times, series]);

  // What the chart shows, summed: a test (and a curious reader of the DOM) sees it move.
  const total = series.reduce((sum, line) => sum + line.values.reduce<number>((inner, value) => inner + (value ?? 0), 0), 0);
  return (
    <figure className="chart" data-total={total}>
      <figcaption className="chart-title">{title}</figcaption>
      <div ref={holder} className="chart-canvas" role="img" aria-label={title} />
    </figure>
  );
}
