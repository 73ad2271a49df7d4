// node:test files that need LibreOffice (office-available.ts says when it is missing): skipped
// with the reason in the test's name, or run (and failing) in CI.

import { test } from 'node:test';
import type { OfficeInstall } from '../../server/src/office/office-install.ts';
import { office, officeMissing as missing } from './office-available.ts';

/** node:test's test(), skipped with the reason in its name where LibreOffice is missing (outside CI). */
export function officeTest(name: string, options: { timeout: number }, body: (t: test.TestContext) => Promise<void>): Promise<void> {
  return test(missing ? `${name} (skipped: ${missing})` : name, { ...options, skip: missing }, async (t) => {
    if (!office.found) throw new Error(`LibreOffice is required in CI: ${office.reason}`);
    await body(closingLate(t));
  });
}

/**
 * The test's context, but a hook registered once the test has ended runs at once. node:test does
 * not stop a body that timed out: one still starting its server (at load 25, four office files at
 * once) went on to start Chromium, LibreOffice and a canary whose t.after never ran, and the file
 * never ended.
 */
function closingLate(t: test.TestContext): test.TestContext {
  return new Proxy(t, {
    get(target, property) {
      if (property === 'after')
        return (fn: () => unknown) =>
          target.signal.aborted
            ? void Promise.resolve()
                .then(fn)
                .catch(() => undefined)
            : target.after(fn);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The LibreOffice found (inside an officeTest, where it is there). */
export function officeInstall(): OfficeInstall {
  if (!office.found) throw new Error(`LibreOffice is required: ${office.reason}`);
  return office.install;
}
