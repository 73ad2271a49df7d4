// How far a page's virtual clock (virtual-clock.ts) runs per step, and why: each figure was
// measured (bench/experiments/vt-budget.ts, vt-real-frames.ts, vt-load.ts) and tuned against the
// others, so they live together, apart from the clock's logic.

/** The quiet window of networkidle0, as puppeteer and docs/api.md#pdfoptions define it: 500 ms with no request in flight. */
export const NETWORK_IDLE_MS = 500;

/**
 * Virtual milliseconds between two frames the page is drawn. A screen draws every 16.7 ms; a
 * PDF needs the frames' side effects (rAF callbacks, intersection and resize observers, lazy
 * loading), not their pixels, and each frame costs ~1 ms, so ten per virtual second.
 */
export const FRAME_INTERVAL_MS = 100;

/**
 * Virtual ms per step while compositor frames are awaited inside the window (a frame comes every
 * ~17 ms of wall time, a step takes ~1 ms of it). There the step changes nothing printed, only the
 * round trips a slow frame costs: 0.1 ms steps made a loaded machine's renders time out (vt-load.ts).
 */
export const COMPOSITOR_STEP_MS = 1;

/**
 * The first step while the engine prints, past the window's end: there every step runs timers the
 * window did not. 1 ms steps ran the clock up to 23 ms past it on an idle machine, enough on a
 * loaded one to run a timer due 50 ms after it (vt-load.ts); Chromium takes fractional budgets.
 */
export const PRINT_STEP_MS = 0.1;

/**
 * While the engine prints, each step is this share of the one before, down to a microsecond (the
 * clock's resolution): however long a print takes, the clock runs at most PRINT_STEP_MS /
 * (1 - PRINT_STEP_DECAY) = 5 ms plus a microsecond per further step past the window.
 */
export const PRINT_STEP_DECAY = 0.98;
export const PRINT_STEP_MIN_MS = 0.001;

/** Virtual ms the clock may run past the window while the engine prints before the receipt warns of later timers. */
export const PRINT_SLACK_MS = 10;

/** Virtual milliseconds at most spent awaiting compositor frames, which is where they start before a window's end. */
export const COMPOSITOR_FRAMES_MS = 250;

/** The page's next two frames (a rAF chain of two runs), awaited in the page's main world. */
export const NEXT_TWO_FRAMES = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))';

/** Virtual milliseconds the clock runs while an image that started loading is awaited. */
export const IMAGE_STEP_MS = 10;

/** Virtual milliseconds the clock runs between checks of a wait_for selector. */
export const SELECTOR_STEP_MS = 100;

/** Virtual ms a held clock is let go for before a render's content exists, so compositor frames come again (virtual-clock.ts hold). */
export const LET_GO_MS = 1;
