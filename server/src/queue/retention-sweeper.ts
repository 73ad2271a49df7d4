// The retention sweeper: expires stored documents whose plan retention has passed (their bytes
// are deleted for good; a tombstone keeps the 410) and forgets old tombstones. It runs once at
// start-up, before the server answers, then every RETENTION_SWEEP_SECONDS. Sweeps never overlap.

import type { Logger } from '../logger.ts';
import type { DocumentsService } from '../services/documents.ts';

export interface RetentionSweeper {
  /** Runs a sweep now (after the one in progress, if any). */
  sweep(): Promise<void>;
  /** Stops the schedule and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps once (awaited), then on a timer that does not keep the process alive. */
export async function startRetentionSweeper(options: { documents: DocumentsService; intervalSeconds: number; log: Logger }): Promise<RetentionSweeper> {
  const { documents, log } = options;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Sweeps queued or running. */
  let pending = 0;
  const sweepOnce = async () => {
    if (stopped) return;
    try {
      const { expired, forgotten } = await documents.sweep();
      if (expired > 0 || forgotten > 0) log.info({ expired, tombstones_forgotten: forgotten }, 'retention sweep');
    } catch (error) {
      // The next sweep tries again; documents past retention already answer 410 when fetched.
      log.error({ err: error }, 'retention sweep failed');
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
