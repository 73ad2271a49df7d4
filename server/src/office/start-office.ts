// Start-up of the optional office component: find LibreOffice (OFFICE_PATH, else soffice on
// PATH), say what was found in the log, start the warm pool in the background. The server starts
// either way; without LibreOffice the converter answers office_unavailable.

import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { canIsolateNetwork, findOffice, OFFICE_INSTALL_HINT } from './office-install.ts';
import { OfficePool, type OfficeAvailability } from './office-pool.ts';

export interface StartedOffice {
  availability: OfficeAvailability;
  close(): Promise<void>;
}

/** The pool the app's office converter works with; `disabled` (tests) behaves as if no LibreOffice were installed. */
export function startOffice(config: Config, log: Logger, disabled: false | undefined): StartedOffice {
  const lookup =
    disabled === false ? ({ found: false, reason: 'office conversion is switched off' } as const) : findOffice(config.officePath, config.officePython);
  if (!lookup.found) {
    log.warn({ reason: lookup.reason }, `office conversion unavailable: ${OFFICE_INSTALL_HINT}`);
    return { availability: { unavailable: lookup.reason }, close: async () => {} };
  }
  const isolateNetwork = config.officeIsolateNetwork && canIsolateNetwork();
  if (config.officeIsolateNetwork && !isolateNetwork)
    log.warn('LibreOffice runs without a network namespace of its own (unshare --user --net refused): links are held off by its settings only');
  const pool = new OfficePool({
    install: lookup.install,
    workDir: path.join(config.dataDir, 'office'),
    concurrency: config.officeConcurrency,
    restartAfter: config.officeRestartAfter,
    isolateNetwork,
    queueSize: config.renderQueueSize,
    queueTimeoutMs: config.renderQueueTimeoutMs,
    log,
  });
  if (config.officeWarmAtStart) void pool.warm();
  log.info(
    { soffice: lookup.install.soffice, processes: config.officeConcurrency, isolated_network: isolateNetwork },
    'office conversion: starting LibreOffice',
  );
  return {
    availability: { pool },
    close: () => pool.close(),
  };
}
