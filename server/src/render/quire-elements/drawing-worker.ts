// The drawing thread's entry (render/quire-elements/drawing-pool.ts): barcodes (bwip-js) and charts
// (ECharts) drawn as SVG off the server's event loop, one at a time.

import { serveTasks } from '../../worker-pool.ts';
import { drawOnThisThread, type DrawingTask } from './drawing-task.ts';

serveTasks<DrawingTask, string>(drawOnThisThread);
