// Certificates in the admin window: import a PEM key and certificate made here with openssl (valid
// for 20 days, so the expiry warning shows, counted as the API counts: 20), see it listed with the
// fingerprint openssl computes, grant it to a key, and delete it through the confirm dialog; at
// 1024 px the table fits (issue 39: it scrolled sideways and cut off Delete), the fingerprint is on
// one line, and a second import does not inherit the first one's owner.

import { execFile as execFileCallback } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect, expectNoHorizontalScroll, snap } from './fixtures.ts';

const execFile = promisify(execFileCallback);

async function selfSigned(dir: string): Promise<{ key: string; cert: string; fingerprint: string }> {
  const run = (args: string[]) => execFile('openssl', args, { cwd: dir, timeout: 30_000 });
  await run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'signer.key',
    '-out',
    'signer.pem',
    '-days',
    '20',
    '-subj',
    '/CN=UI Test Signer/O=Quire Tests',
  ]);
  const { stdout } = await run(['x509', '-in', 'signer.pem', '-noout', '-fingerprint', '-sha256']);
  // "sha256 Fingerprint=AB:CD:..." -> the colon-separated form the list shows.
  const fingerprint = stdout.trim().split('=')[1]!;
  return { key: await readFile(path.join(dir, 'signer.key'), 'utf8'), cert: await readFile(path.join(dir, 'signer.pem'), 'utf8'), fingerprint };
}

test('import a PEM certificate, see its fingerprint and expiry warning, grant it to a key, delete it', async ({ admin: page, quire }, testInfo) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-certs-ui-'));
  try {
    const made = await selfSigned(dir);
    const key = await quire.createKey('starter', { name: 'Contracts service' });

    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto('/admin/certificates');
    await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Import certificate' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import a certificate' });
    // A first import for the key; the next one starts with the operator as owner again.
    await dialog.getByText('PEM key and chain', { exact: true }).click();
    await dialog.getByLabel('Private key (PEM)').fill(made.key);
    await dialog.getByLabel('Certificate and chain (PEM)').fill(made.cert);
    await dialog.getByLabel('Owner').selectOption(key.id);
    await dialog.getByLabel('Name', { exact: true }).fill('Key signer');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: 'Key signer' })).toContainText('Key Contracts service');
    await page.getByRole('button', { name: 'Import certificate' }).first().click();
    await expect(dialog.getByLabel('Owner')).toHaveValue('');
    await dialog.getByText('PEM key and chain', { exact: true }).click();
    await dialog.getByLabel('Private key (PEM)').fill(made.key);
    await dialog.getByLabel('Certificate and chain (PEM)').fill(made.cert);
    await dialog.getByLabel('Name', { exact: true }).fill('UI signer');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByRole('row').filter({ hasText: 'UI signer' });
    // The whole fingerprint in the title (and the copy button), its ends on one line.
    const fingerprint = row.getByTestId('fingerprint');
    await expect(fingerprint).toHaveAttribute('title', made.fingerprint);
    await expect(fingerprint).toHaveText(`${made.fingerprint.slice(0, 11)}…${made.fingerprint.slice(-11)}`);
    expect((await fingerprint.boundingBox())!.height, 'the fingerprint on one line').toBeLessThan(24);
    await expect(row).toContainText('CN=UI Test Signer');
    // Counted as the API counts (a part day is a day), with the warning's date in words, not ISO.
    const pill = row.locator('.pill-warn');
    await expect(pill).toHaveText('Expires in 20 days');
    await expect(pill).toHaveAttribute('title', /^expires in 20 days, on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/);
    await expectNoHorizontalScroll(page);
    const wrap = page.locator('.table-wrap');
    expect(
      await wrap.evaluate((element) => element.scrollWidth - element.clientWidth),
      'the certificates table scrolls sideways at 1024 px',
    ).toBeLessThanOrEqual(0);
    const deleteBox = (await row.getByRole('button', { name: 'Delete' }).boundingBox())!;
    expect(deleteBox.x + deleteBox.width, 'Delete inside the window').toBeLessThanOrEqual(1024);
    await expect(row).toContainText('Operator: no key yet');
    await snap(page, testInfo, 'certificates');

    await row.getByRole('button', { name: 'Grants' }).click();
    const grants = page.getByRole('dialog', { name: 'Keys that may sign with “UI signer”' });
    await grants.getByLabel(`Contracts service (${key.id})`).check();
    await grants.getByRole('button', { name: 'Save grants' }).click();
    await expect(grants).toBeHidden();
    await expect(row).toContainText('Operator, granted to Contracts service');
    // The key itself now lists it: the grant reached the server, not only the screen.
    const listed = await fetch(`${quire.url}/v1/certificates`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(((await listed.json()) as { data: { name: string }[] }).data.map((certificate) => certificate.name).sort()).toEqual(['Key signer', 'UI signer']);

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “UI signer”?' });
    await confirm.getByRole('button', { name: 'Delete certificate' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: 'UI signer' })).toHaveCount(0);
    const gone = await fetch(`${quire.url}/admin/v1/certificates`, { headers: { authorization: `Bearer ${quire.adminToken}` } });
    // The worker's server is shared with other specs (a11y-dialogs imports one of its own): this test's certificates only.
    const names = ((await gone.json()) as { data: { name: string }[] }).data.map((certificate) => certificate.name);
    expect(names).toContain('Key signer');
    expect(names).not.toContain('UI signer');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
