// Draws one checked ECharts option as SVG with ECharts' server-side renderer: animation off, the
// page's font unless the option names one, no halos around labels, the chart disposed after. Runs on
// the drawing thread (drawing-pool.ts); chart.ts has checked and bounded the option before.

/** What the chart thread is asked to draw: the option as checked, and the size in CSS px. */
export interface ChartTask {
  option: Record<string, unknown>;
  width: number;
  height: number;
}

/** The chart's SVG; throws what ECharts throws for an option it cannot draw. */
export async function drawChartSvg({ option, width, height }: ChartTask): Promise<string> {
  const echarts = await import('echarts');
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    const { textStyle } = option as { textStyle?: object };
    chart.setOption({ ...option, textStyle: { fontFamily: 'inherit', ...textStyle }, animation: false });
    return withoutTextHalos(chart.renderToSVGString());
  } finally {
    // Without dispose a timer of the chart keeps the thread's event loop alive.
    chart.dispose();
  }
}

/**
 * Labels without the white outline ECharts draws around some (pie labels): Chromium prints a
 * stroked text as a Type 3 font of outlines, which pdftotext and screen readers may not read back.
 */
function withoutTextHalos(svg: string): string {
  return svg.replace(/<text\b[^>]*>/g, (tag) => tag.replace(/\s(?:stroke|stroke-width|stroke-miterlimit|paint-order)="[^"]*"/g, ''));
}
