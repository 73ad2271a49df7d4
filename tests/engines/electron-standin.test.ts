// The engine matrix (tests/helpers/engine-lane.ts) on the desktop app's page source: Electron
// cannot run here, so its page source's CDP command sequence runs on a stand-in over Debian's full
// chromium (tests/helpers/fake-electron.ts).

import { engineLaneTest } from '../helpers/engine-lane.ts';

engineLaneTest({
  engine: 'electron-standin',
  covers: "waiting, virtual-clock fidelity, the page's time, isolation and teardown, default options",
  files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/isolation.test.ts', 'tests/api/default-options.test.ts'],
});
