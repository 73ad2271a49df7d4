// The engine matrix (tests/helpers/engine-lane.ts) on Debian's chromium-headless-shell.
// default-options.test.ts runs on every build: the defaults are what users call first, and a render
// path one build lacks (begin frames) has hidden a hang before (issue #30). The default build, the
// npm headless shell, is not run again here: `npm run test:api` runs these files on it.

import { engineLaneTest } from '../helpers/engine-lane.ts';

engineLaneTest({
  engine: 'debian-shell',
  covers: "rendering, waiting, isolation and teardown, the virtual clock and the page's time, default options",
  files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/isolation.test.ts', 'tests/api/default-options.test.ts'],
});
