// Office settings: LibreOffice for POST /v1/convert/office.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { boolean, integer, setting, text } from './parsers.ts';

export const officeSettings = {
  officePath: setting(
    'OFFICE_PATH',
    '',
    text,
    'LibreOffice executable (soffice) for POST /v1/convert/office. Default: soffice on PATH; none found: the route answers 501 office_unavailable.',
  ),
  officePython: setting(
    'OFFICE_PYTHON',
    '',
    text,
    'Python 3 with LibreOffice’s uno module (Debian: python3-uno). Default: LibreOffice’s own python, else /usr/bin/python3.',
  ),
  officeConcurrency: setting('OFFICE_CONCURRENCY', 1, integer(1, 16), 'LibreOffice processes kept warm; each converts one document at a time.'),
  officeRestartAfter: setting('OFFICE_RESTART_AFTER', 200, integer(0, 1_000_000), 'Restart a LibreOffice process after this many conversions (0: never).'),
  officeWarmAtStart: setting(
    'OFFICE_WARM_AT_START',
    true,
    boolean,
    'Start the LibreOffice processes with the server (false: on the first office conversion, which then waits some seconds).',
  ),
  officeIsolateNetwork: setting(
    'OFFICE_ISOLATE_NETWORK',
    true,
    boolean,
    'Run LibreOffice in a network namespace of its own (unshare --user --net: no way out) where the machine allows it; its settings hold links off either way.',
  ),
  officeMaxUploadBytes: setting(
    'OFFICE_MAX_UPLOAD_BYTES',
    25 * 1024 * 1024,
    integer(1024, 1024 * 1024 * 1024),
    'Largest body POST /v1/convert/office reads (all files and fields); beyond it 413 payload_too_large.',
  ),
} as const;
