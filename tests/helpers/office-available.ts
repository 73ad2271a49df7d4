// Whether LibreOffice is here, as the test server looks for it (no OFFICE_PATH: soffice on PATH and
// a Python with uno), and why a test that needs it is skipped: never in CI, where nothing may be
// missing (scripts/setup.sh installs LibreOffice) and such a test runs and fails instead. Shared by
// the node:test files (needs-office.ts) and the Playwright specs.

import { findOffice, type OfficeLookup } from '../../server/src/office/office-install.ts';

export const office: OfficeLookup = findOffice('', '');

/** Why a test that needs LibreOffice is skipped here, or false when it runs. */
export const officeMissing: string | false = !office.found && !process.env.CI ? `LibreOffice is not installed here: ${office.reason}` : false;
