// The engine matrix (tests/helpers/engine-lane.ts) on Debian's full chromium: no
// HeadlessExperimental domain, like Electron's Chromium, so the virtual clock runs without drawn
// frames, or the wall clock does.

import { engineLaneTest } from '../helpers/engine-lane.ts';

engineLaneTest({
  engine: 'debian-full',
  covers: "waiting and virtual-clock fidelity, the page's time, default options",
  files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/default-options.test.ts'],
});
