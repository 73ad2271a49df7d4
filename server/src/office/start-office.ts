// Start-up of the optional office component: find LibreOffice (OFFICE_PATH, else soffice on
// PATH), say what was found in the log, start the warm pool in the background. The server starts
// either way; without LibreOffice the converter answers office_unavailable.

import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { OfficeConverter } from '../services/office.ts';
import type { HeadsDrawer } from '../services/pdf-heads.ts';
import { canIsolateNetwork, findOffice, OFFICE_INSTALL_HINT } from './office-install.ts';
import { OfficePool } from './office-pool.ts';

export interface StartedOffice {
  converter: OfficeConverter;
  close(): Promise<void>;
}

/**
 * The converter the app wires in; `disabled` (tests) behaves as if no LibreOffice were installed.
 * `drawer` (the renderer) draws the headers and footers an office conversion asks for.
 */
export function startOffice(config: Config, log: Logger, disabled: false | undefined, drawer: HeadsDrawer): StartedOffice {
  const lookup =
    disabled === false ? ({ found: false, reason: 'office conversion is switched off' } as const) : findOffice(config.officePath, config.officePython);
  if (!lookup.found) {
    log.warn({ reason: lookup.reason }, `office conversion unavailable: ${OFFICE_INSTALL_HINT}`);
    return { converter: new OfficeConverter({ unavailable: lookup.reason }, drawer), close: async () => {} };
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
    converter: new OfficeConverter({ pool }, drawer),
    close: () => pool.close(),
  };
}
