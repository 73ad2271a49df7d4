// Where barcodes and charts are drawn: one worker thread (worker-pool.ts) with a time and heap
// bound. Some inputs take seconds (a PDF417 of 1,800 characters takes bwip-js 0.16 s, a pictorial
// bar repeating tiny symbols takes ECharts 5 s and 35 MB of SVG): they cost the server this thread,
// never its event loop, and one that runs over is refused instead of stalling renders.

import { WorkerPool, type ErrorShape } from '../../worker-pool.ts';
import { drawOnThisThread, type DrawingTask } from './drawing-task.ts';

/** A drawing still running after this long ends its thread and is refused. */
export const DRAWING_TIMEOUT_MS = 10_000;
/** The most SVG one drawing may make: beyond it the document could not be rendered anyway (the 5 MB ceiling). */
export const MAX_DRAWING_SVG = 5 * 1024 * 1024;

/** Why the thread did not draw: the drawing library's refusal (`reason`), or a bound it ran over. */
export class DrawingFailedError extends Error {
  constructor(
    readonly reason: string,
    readonly overBound: boolean,
  ) {
    super(reason);
    this.name = 'DrawingFailedError';
  }
}

const pool = new WorkerPool<DrawingTask, string>({
  threads: 1,
  source: new URL('./drawing-worker.ts', import.meta.url),
  // In the bundles: drawing-worker.mjs beside main.mjs (scripts/node-bundle.ts's WORKER_ENTRIES).
  bundled: new URL('./drawing-worker.mjs', import.meta.url),
  runInline: drawOnThisThread,
  errorFrom: (error: ErrorShape) => new DrawingFailedError(error.message, false),
  taskTimeoutMs: DRAWING_TIMEOUT_MS,
  lostError: (why) =>
    new DrawingFailedError(why === 'timeout' ? `took more than ${DRAWING_TIMEOUT_MS / 1000} s to draw` : 'needed more memory than a drawing may use', true),
  resourceLimits: { maxOldGenerationSizeMb: 512 },
});

/** The SVG of one drawing, made on the drawing thread; throws DrawingFailedError. */
export async function drawOnThread(task: DrawingTask): Promise<string> {
  const svg = await pool.run(task);
  if (svg.length > MAX_DRAWING_SVG) throw new DrawingFailedError(`makes more than ${MAX_DRAWING_SVG / 1024 / 1024} MB of SVG`, true);
  return svg;
}
