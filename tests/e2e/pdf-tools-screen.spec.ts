// The PDF tools screen looks finished (issue 39, items 15 and 16): the window's own controls (no
// bare browser file picker, select, password or number field), card contents off the border,
// "Presets of" on one line, "Saved" after saving a preset (not its clipped pre_ id), stored
// documents named as Documents names them, and a file that is not a PDF refused in a sentence.

import type { Page } from '@playwright/test';
import { test, expect, expectNoHorizontalScroll, snap } from './fixtures.ts';
import { samplePdf } from '../helpers/pdf-samples.ts';

test.describe.configure({ timeout: 180_000 });

/** Controls closer than 12 px to their card's left or right border, by accessible name or tag. */
async function controlsOnTheBorder(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.card')].flatMap((card) => {
      const box = card.getBoundingClientRect();
      return [...card.querySelectorAll('input:not(.sr-only), select, textarea, button, .file-picker, .field-label')].flatMap((control) => {
        const at = control.getBoundingClientRect();
        if (at.width === 0) return [];
        const gap = Math.min(at.left - box.left, box.right - at.right);
        return gap < 12 ? [`${control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.tagName}: ${Math.round(gap)} px`] : [];
      });
    }),
  );
}

/** Whether the element's text fits on one line (its height under 1.5 line heights). */
async function isOneLine(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
    return element.getBoundingClientRect().height < line * 1.5;
  });
}

for (const width of [1400, 1024]) {
  test(`PDF tools at ${width} px: the window's controls, padded cards, named documents, "Saved" after a preset`, async ({ admin: page, quire }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const key = await quire.createKey('business', { name: 'Contracts service' });
    const auth = { authorization: `Bearer ${key.key}` };
    // One stored render without a filename: Documents calls it "Render, <date>", never its bare id.
    const unnamed = await quire.render({ html: '<p>x</p>', store: true, options: { wait_until: 'load' } }, auth);
    const unnamedId = unnamed.headers.get('x-document-id')!;
    await quire.render({ html: '<p>y</p>', store: true, filename: 'contract.pdf', options: { wait_until: 'load' } }, auth);

    await page.goto('/admin/pdf-tools');
    const stored = page.getByLabel('or a stored document');
    await expect(stored.locator('option', { hasText: 'contract.pdf' }).first()).toBeAttached();
    // The window's controls: the file input hidden behind a button-like label, the rest styled.
    await expect(page.getByTestId('pdf-file')).toHaveClass(/sr-only/);
    await expect(page.locator('label[for="pdf-file"].button')).toBeVisible();
    await expect(stored).toHaveClass(/\bselect\b/);
    await expect(page.getByLabel('Password (encrypted PDFs)')).toHaveClass(/\binput\b/);
    const labels = await stored.locator('option').allTextContents();
    expect(
      labels.filter((label) => /^doc_[\w-]+$/.test(label.trim())),
      'bare ids in the document list',
    ).toEqual([]);
    expect(labels.find((label) => label.includes(unnamedId))).toMatch(/^Render, /);

    expect(await isOneLine(page, 'label[for="preset-key"]'), '"Presets of" on one line').toBe(true);
    await page.getByLabel('Operation').selectOption({ label: 'Rotate' });
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Preset name').fill('turn');
    await page.getByRole('button', { name: 'Save steps as preset' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved “turn”' })).toBeVisible();
    await expect(page.getByText(/pre_[\w-]+/)).toHaveCount(0);

    // A file that is not a PDF is refused in a sentence, not "pdf is not a PDF."
    await page.getByTestId('pdf-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('button', { name: 'Inspect and preview' }).click();
    await expect(page.getByRole('alert')).toHaveText('The file given as pdf is not a PDF: its first kilobyte has no %PDF- header.');

    // A PDF opened: the images card's format and number fields are the window's too.
    await page.getByTestId('pdf-file').setInputFiles({ name: 'sample.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await samplePdf()) });
    await page.getByRole('button', { name: 'Inspect and preview' }).click();
    await expect(page.getByTestId('inspection')).toBeVisible({ timeout: 90_000 });
    await expect(page.getByLabel('Format')).toHaveClass(/\bselect\b/);
    await expect(page.getByLabel('Resolution (dpi)')).toHaveClass(/\binput\b/);
    expect(await controlsOnTheBorder(page), 'controls on a card’s border').toEqual([]);
    await expectNoHorizontalScroll(page);
    await snap(page, testInfo, `pdf-tools-${width}`);
  });
}
