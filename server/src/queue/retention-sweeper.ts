// The retention sweeper: runs the clean-up jobs of stored data whose time has passed (documents
// past their plan's retention become tombstones, old tombstones are forgotten, completed batch
// records past their expiry are deleted). It runs once at start-up, before the server answers,
// then every RETENTION_SWEEP_SECONDS. Sweeps never overlap; with several instances each row is
// taken by one of them (the stores' deletes are conditional), so running everywhere is safe.

import type { Logger } from '../logger.ts';

/** One clean-up job; resolves with counts to log (all zero: nothing is logged). */
export type SweepJob = () => Promise<Record<string, number>>;

export interface RetentionSweeper {
  /** Runs a sweep now (after the one in progress, if any). */
  sweep(): Promise<void>;
  /** Stops the schedule and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps once (awaited), then on a timer that does not keep the process alive. */
export async function startRetentionSweeper(options: { jobs: Record<string, SweepJob>; intervalSeconds: number; log: Logger }): Promise<RetentionSweeper> {
  const { jobs, log } = options;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Sweeps queued or running. */
  let pending = 0;
  const sweepOnce = async () => {
    for (const [name, job] of Object.entries(jobs)) {
      if (stopped) return;
      try {
        const counts = await job();
        if (Object.values(counts).some((count) => count > 0)) log.info({ job: name, ...counts }, 'retention sweep');
      } catch (error) {
        // The next sweep tries again; documents past retention already answer 410 when fetched.
        log.error({ err: error, job: name }, 'retention sweep failed');
      }
    }
  };
  const sweep = (): Promise<void> => {
    pending++;
    running = running.then(sweepOnce).finally(() => void pending--);
    return running;
  };
  await sweep();
  // A slow sweep is not queued behind by every tick that passes meanwhile.
  const timer = setInterval(() => {
    if (pending === 0) void sweep();
  }, options.intervalSeconds * 1000);
  timer.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
