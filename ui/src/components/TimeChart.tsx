// A small time-series chart drawn by uPlot (docs/decisions.md#the-activity-screen-the-event-bus-and-charts-with-uplot): a few
// series over the last hour, redrawn in place when the data changes. Presentational: the page
// hands it the x values (epoch seconds) and one array per series.

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatClock, formatShortDate } from '../lib/format.ts';

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Drawn as filled bars (counts) rather than a line. */
  bars?: boolean;
}

/** Height of a chart's plot in CSS pixels. */
const HEIGHT = 180;
/** The x axis is ticked every this many seconds, at whole multiples, on every chart alike. */
const TICK_SECONDS = 600;

/**
 * One time-series chart. Every chart of a page is given the same `range` (epoch seconds), so their
 * x axes line up: the same span, the same ticks, room on both sides of the data.
 */
export function TimeChart({
  title,
  times,
  series,
  unit,
  range,
}: {
  title: string;
  times: number[];
  series: ChartSeries[];
  unit?: string;
  range: [number, number];
}) {
  const rangeRef = useRef(range);
  rangeRef.current = range;
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const shape = series.map((line) => `${line.label}:${line.bars ? 'b' : 'l'}`).join('|');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt only when its series change shape; new values are drawn by setData below
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: { x: { time: true, range: () => rangeRef.current }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [
        {
          stroke: '#6b7280',
          grid: { stroke: '#eef0f3' },
          ticks: { show: false },
          font: '10px sans-serif',
          splits: (_u, _axis, min, max) => tickTimes(min, max),
          values: (_u, splits) => splits.map((seconds) => formatClock(seconds * 1000)),
        },
        // No axis label (the title names the unit): every chart's plot then starts at the same x, so their times line up.
        { stroke: '#6b7280', grid: { stroke: '#eef0f3' }, ticks: { show: false }, size: 44, font: '10px sans-serif' },
      ],
      series: [
        // The legend's and the cursor's date: "26 Nov 14:05", never "11/26/26".
        { value: (_u, seconds) => (seconds == null ? '' : formatShortDate(seconds * 1000)) },
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 1.5,
          fill: line.bars ? `${line.color}55` : undefined,
          paths: line.bars ? uPlot.paths.bars?.({ size: [0.8, 12] }) : undefined,
          // A minute between minutes without renders has no line to draw: its point shows it. Bars need none.
          points: line.bars ? { show: false } : { show: true, size: 4 },
          // The unit goes with the values the cursor reads out ("412 ms").
          ...(unit ? { value: (_u: uPlot, value: number | null) => (value == null ? '—' : `${Math.round(value)} ${unit}`) } : {}),
        })),
      ],
    };
    chart.current = new uPlot(options, [times, ...series.map((line) => line.values)] as uPlot.AlignedData, element);
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [shape]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the x scale reads range through rangeRef; a new range needs this redraw to take effect
  useEffect(() => {
    chart.current?.setData([times, ...series.map((line) => line.values)] as uPlot.AlignedData);
  }, [times, series, range]);

  // What the chart shows, summed: a test (and a curious reader of the DOM) sees it move.
  const total = series.reduce((sum, line) => sum + line.values.reduce<number>((inner, value) => inner + (value ?? 0), 0), 0);
  return (
    <figure className="chart" data-total={total}>
      <figcaption className="chart-title">{title}</figcaption>
      <div ref={holder} className="chart-canvas" role="img" aria-label={title} />
    </figure>
  );
}

/** Whole multiples of TICK_SECONDS within [min, max]. */
function tickTimes(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let at = Math.ceil(min / TICK_SECONDS) * TICK_SECONDS; at <= max; at += TICK_SECONDS) ticks.push(at);
  return ticks;
}
