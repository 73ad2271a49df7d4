// The drawing thread's entry (render/quire-elements/drawing-pool.ts): barcodes (bwip-js) and charts
// (ECharts) drawn as SVG off the server's event loop, one at a time.

import { serveTasks } from '../../worker-pool.ts';
import { drawOnThisThread, type DrawingTask } from './drawing-task.ts';

// Both libraries load before the thread says it is ready (ECharts is several MB of script): on a
// busy machine their load took a first drawing past its 10 s bound.
serveTasks<DrawingTask, string>(drawOnThisThread, undefined, () => Promise.all([import('bwip-js/node'), import('echarts')]));
