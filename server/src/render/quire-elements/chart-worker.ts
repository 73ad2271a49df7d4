// The chart thread's entry (render/quire-elements/chart-pool.ts): draws ECharts options as SVG off
// the server's event loop, one at a time.

import { serveTasks } from '../../worker-pool.ts';
import { drawChartSvg, type ChartTask } from './chart-draw.ts';

serveTasks<ChartTask, string>(drawChartSvg);
