// Where charts are drawn: one worker thread (worker-pool.ts) with a time and heap bound, so an
// option that takes ECharts seconds or hundreds of MB (thousands of repeated symbols) costs the
// server one thread, never its event loop, and ends as element_invalid instead of a stalled render.

import { WorkerPool } from '../../worker-pool.ts';
import { drawChartSvg, type ChartTask } from './chart-draw.ts';
import { ElementAttributeError } from './errors.ts';

/** A chart still drawing after this long ends its thread and is refused. */
export const CHART_TIMEOUT_MS = 10_000;
/** The most SVG one chart may make: beyond it the document could not be rendered anyway (the 5 MB ceiling). */
export const MAX_CHART_SVG = 5 * 1024 * 1024;

const pool = new WorkerPool<ChartTask, string>({
  threads: 1,
  source: new URL('./chart-worker.ts', import.meta.url),
  // In the bundles: chart-worker.mjs beside main.mjs (scripts/node-bundle.ts's WORKER_ENTRIES).
  bundled: new URL('./chart-worker.mjs', import.meta.url),
  runInline: drawChartSvg,
  errorFrom: (error) => new ElementAttributeError('content', `is an option ECharts cannot draw: ${error.message}`),
  taskTimeoutMs: CHART_TIMEOUT_MS,
  lostError: (why) =>
    new ElementAttributeError(
      'content',
      why === 'timeout' ? `took more than ${CHART_TIMEOUT_MS / 1000} s to draw; draw fewer symbols or points` : 'needed more memory than a chart may use',
    ),
  resourceLimits: { maxOldGenerationSizeMb: 512 },
});

/** The SVG of a checked option, drawn on the chart thread; refuses one that takes too long, too much memory or makes too much SVG. */
export async function drawOnThread(task: ChartTask): Promise<string> {
  const svg = await pool.run(task);
  if (svg.length > MAX_CHART_SVG)
    throw new ElementAttributeError('content', `draws more than ${MAX_CHART_SVG / 1024 / 1024} MB of SVG; draw fewer symbols or points`);
  return svg;
}
