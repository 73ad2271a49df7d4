// Tests that need LibreOffice: the lookup the test server makes (no OFFICE_PATH: soffice on PATH
// and a Python with uno). Without it such a test is skipped saying why, except in CI, where
// nothing may be missing (scripts/setup.sh installs LibreOffice): there it runs and fails.

import { test } from 'node:test';
import { findOffice, type OfficeInstall, type OfficeLookup } from '../../server/src/office/office-install.ts';

export const office: OfficeLookup = findOffice('', '');

const missing = !office.found && !process.env.CI ? `LibreOffice is not installed here: ${office.reason}` : false;

/** node:test's test(), skipped with the reason in its name where LibreOffice is missing (outside CI). */
export function officeTest(name: string, options: { timeout: number }, body: (t: test.TestContext) => Promise<void>): Promise<void> {
  return test(missing ? `${name} (skipped: ${missing})` : name, { ...options, skip: missing }, async (t) => {
    if (!office.found) throw new Error(`LibreOffice is required in CI: ${office.reason}`);
    await body(t);
  });
}

/** The LibreOffice found (inside an officeTest, where it is there). */
export function officeInstall(): OfficeInstall {
  if (!office.found) throw new Error(`LibreOffice is required: ${office.reason}`);
  return office.install;
}
