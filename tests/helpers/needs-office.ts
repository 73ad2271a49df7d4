// node:test files that need LibreOffice (office-available.ts says when it is missing): skipped
// with the reason in the test's name, or run (and failing) in CI.

import { test } from 'node:test';
import type { OfficeInstall } from '../../server/src/office/office-install.ts';
import { office, officeMissing as missing } from './office-available.ts';
import { closingLate } from './late-hooks.ts';

/** node:test's test(), skipped with the reason in its name where LibreOffice is missing (outside CI). */
export function officeTest(name: string, options: { timeout: number }, body: (t: test.TestContext) => Promise<void>): Promise<void> {
  return test(missing ? `${name} (skipped: ${missing})` : name, { ...options, skip: missing }, async (t) => {
    if (!office.found) throw new Error(`LibreOffice is required in CI: ${office.reason}`);
    await body(closingLate(t));
  });
}

/** The LibreOffice found (inside an officeTest, where it is there). */
export function officeInstall(): OfficeInstall {
  if (!office.found) throw new Error(`LibreOffice is required: ${office.reason}`);
  return office.install;
}
