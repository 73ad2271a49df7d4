// What the drawing thread is asked to draw, and the drawing itself: a barcode's bwip-js options, or
// a checked chart option (chart-draw.ts). The elements' modules (barcode.ts, chart.ts) check the
// attributes on the server's thread first, so the thread only ever draws.

import { drawChartSvg, type ChartTask } from './chart-draw.ts';

/** One drawing: a barcode's bwip-js options, or a chart. */
export type DrawingTask = { kind: 'barcode'; options: Record<string, unknown> } | ({ kind: 'chart' } & ChartTask);

/** The drawing's SVG; throws what bwip-js or ECharts throw for data they refuse. */
export async function drawOnThisThread(task: DrawingTask): Promise<string> {
  if (task.kind === 'chart') return drawChartSvg(task);
  const { default: bwipjs } = await import('bwip-js/node');
  return bwipjs.toSVG(task.options as unknown as Parameters<typeof bwipjs.toSVG>[0]);
}
