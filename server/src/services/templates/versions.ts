// Versions of a template (made by every save, see services/templates/templates.ts): list, view, diff
// against the current template, restore (a new save of an old version), and the visual check:
// each version's sample data is rendered once as its reference, and a check renders it again
// now and compares the two page by page (after an upgrade of Chromium or fonts).

import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../render/pdf-options.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { Page } from '../../stores/newest-first-index.ts';
import { REFERENCE_RENEW_MS, type TemplateVersion, type TemplateVersionsStore, type VersionMeta } from '../../stores/template-versions.ts';
import { unifiedDiff } from './line-diff.ts';
import { wordTextOf } from '../word/template.ts';
import { pageOrBadCursor } from '../accounts/paging.ts';
import { comparePdfs, countPages } from '../pdf-tools/pdf-pixels.ts';
import { REFERENCE_TRIES, underLease, worthAnotherTry } from './reference-tries.ts';
import type { TemplateRecord, TemplatesService } from './templates.ts';
import type { Owner } from '../accounts/owner.ts';

export type { TemplateVersion, VersionMeta };

/** Reference and check render alike: waiting for load, not for network idle, as the assets come from memory. */
const CHECK_OPTIONS: PdfOptions = { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' };
/** How often another instance's reference is looked for while it is on its way. */
const REFERENCE_POLL_MS = 100;

export interface VersionDiff {
  version: number;
  currentVersion: number;
  /** Unified diff of the version's HTML to the current HTML; "" when equal. */
  htmlDiff: string;
  nameChanged: boolean;
  formatChanged: boolean;
  sampleDataChanged: boolean;
}

export interface CheckResult {
  templateId: string;
  version: number;
  pages: number;
  changedPages: number[];
  maxDiffRatio: number;
  /** unchanged / changed, or reference_created when the version had no reference yet (made now). */
  verdict: 'unchanged' | 'changed' | 'reference_created';
}

export interface TemplateVersionsDeps {
  store: TemplateVersionsStore;
  templates: Pick<TemplatesService, 'visible' | 'get' | 'replace' | 'version' | 'previewSource' | 'wordPdf'>;
  renderer: Renderer;
  log: Logger;
}

export class TemplateVersionsService {
  /** Reference renders under way, by "<template id>/<version>", so a check waits for its own. */
  private readonly making = new Map<string, Promise<Uint8Array | undefined>>();

  constructor(private readonly deps: TemplateVersionsDeps) {}

  /** A page of a template's versions, newest first. */
  async list(owner: Owner, id: string, limit: number, cursor: string | undefined): Promise<Page<VersionMeta>> {
    await this.deps.templates.visible(owner, id);
    return pageOrBadCursor(() => this.deps.store.page(id, limit, cursor));
  }

  /** One version, HTML and sample data included. */
  async get(owner: Owner, id: string, number: number): Promise<TemplateVersion> {
    await this.deps.templates.visible(owner, id);
    return this.deps.templates.version(id, number);
  }

  /** The version against the current template. */
  async diff(owner: Owner, id: string, number: number): Promise<VersionDiff> {
    const [version, current, currentVersion] = await Promise.all([this.get(owner, id, number), this.deps.templates.get(owner, id), this.deps.store.latest(id)]);
    return {
      version: number,
      currentVersion: currentVersion ?? number,
      htmlDiff: unifiedDiff(await textOf(version), await textOf(current)),
      nameChanged: version.name !== current.name,
      formatChanged: version.format !== current.format,
      sampleDataChanged: JSON.stringify(version.sampleData) !== JSON.stringify(current.sampleData),
    };
  }

  /** Makes the version current again, as a new save (so as a new version). */
  async restore(owner: Owner, id: string, number: number): Promise<TemplateRecord> {
    const version = await this.get(owner, id, number);
    return this.deps.templates.replace(owner, id, { name: version.name, html: version.html, format: version.format, sampleData: version.sampleData });
  }

  /** Renders a new version's reference in the background (at batch priority, tried again after a failure load explains); failures are logged, never thrown. */
  makeReference(version: TemplateVersion): void {
    void this.reference(version);
  }

  /** Waits for reference renders under way (shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.making.values());
  }

  /**
   * The stored reference PDF of a version, made now when it has none (with several instances,
   * the one that saved the version may still be making it: every instance answers the same).
   */
  async referencePdf(id: string, number: number): Promise<Uint8Array> {
    await this.deps.templates.visible(undefined, id);
    const version = await this.deps.templates.version(id, number);
    const pdf = (await this.storedReference(id, number)) ?? (await this.reference(version, true));
    if (!pdf) throw new ApiError('not_found', `Version ${number} of template ${id} has no reference rendering yet; run the check to make one.`);
    return pdf;
  }

  /** Renders a version (default: the latest) now and compares it with its reference, page by page. */
  async check(id: string, number?: number): Promise<CheckResult> {
    await this.deps.templates.visible(undefined, id);
    const versionNumber = number ?? (await this.deps.store.latest(id));
    if (versionNumber === undefined) throw new ApiError('template_not_found', `Template ${id} has no saved version to check; save it once first.`);
    const version = await this.deps.templates.version(id, versionNumber);
    const reference = await this.storedReference(id, versionNumber);
    if (!reference) {
      const made = await this.reference(version, true);
      return {
        templateId: id,
        version: versionNumber,
        pages: made ? await countPages(made) : 0,
        changedPages: [],
        maxDiffRatio: 0,
        verdict: 'reference_created',
      };
    }
    const now = await this.render(version);
    const { pages, changedPages, diffRatios } = await comparePdfs(reference, now);
    return {
      templateId: id,
      version: versionNumber,
      pages,
      changedPages,
      maxDiffRatio: Math.max(0, ...diffRatios),
      verdict: changedPages.length > 0 ? 'changed' : 'unchanged',
    };
  }

  /**
   * The version's reference: one this process is making, the stored one, or (several instances)
   * the one the instance that saved the version is still making, waited for while it says so.
   */
  private async storedReference(id: string, number: number): Promise<Uint8Array | undefined> {
    const making = this.making.get(`${id}/${number}`);
    if (making) return making;
    for (;;) {
      const stored = await this.deps.store.readReference(id, number);
      if (stored) return stored;
      // No longer coming may mean stored since the read above (a save ends the mark): read again.
      // Under load that gap is wide enough for the save to land in it, and a check then made its own.
      if (!(await this.deps.store.isReferenceComing(id, number))) return this.deps.store.readReference(id, number);
      await sleep(REFERENCE_POLL_MS);
    }
  }

  private reference(version: TemplateVersion, interactive = false): Promise<Uint8Array | undefined> {
    const key = `${version.templateId}/${version.number}`;
    const existing = this.making.get(key);
    if (existing) return existing;
    const { templateId, number } = version;
    const making = (async () => {
      try {
        // A check waits for an interactive reference itself, so only the background one tries again.
        if (interactive) return await this.renderAndSave(version, true);
        return await underLease(
          () => this.deps.store.renewReference(templateId, number),
          REFERENCE_RENEW_MS,
          () => this.backgroundReference(version),
        );
      } catch (error) {
        // Instances waiting for this reference make their own instead.
        await this.deps.store.abandonReference(templateId, number).catch(() => undefined);
        if (interactive) throw error;
        this.deps.log.warn({ template_id: templateId, version: number, err: (error as Error).message }, 'could not render the reference of a template version');
        return undefined;
      } finally {
        this.making.delete(key);
      }
    })();
    this.making.set(key, making);
    return making;
  }

  /** The background reference, tried again (up to REFERENCE_TRIES) after a failure load or a crash explains. */
  private async backgroundReference(version: TemplateVersion): Promise<Uint8Array> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.renderAndSave(version, false);
      } catch (error) {
        if (attempt >= REFERENCE_TRIES || !worthAnotherTry(error)) throw error;
        this.deps.log.warn(
          { template_id: version.templateId, version: version.number, attempt, err: (error as Error).message },
          'the reference render of a template version failed; trying again',
        );
      }
    }
  }

  private async renderAndSave(version: TemplateVersion, interactive: boolean): Promise<Uint8Array> {
    const pdf = await this.render(version, interactive);
    await this.deps.store.saveReference(version.templateId, version.number, pdf);
    return pdf;
  }

  private async render(version: TemplateVersion, interactive = true): Promise<Uint8Array> {
    const priority = interactive ? 'interactive' : 'background';
    if (version.format === 'docx') return this.deps.templates.wordPdf({ docx: version.html, name: version.name, data: version.sampleData ?? {}, priority });
    const source = await this.deps.templates.previewSource(version.templateId, version.html, version.sampleData ?? {}, version.format);
    return this.deps.renderer.render({ source, options: CHECK_OPTIONS, priority });
  }
}

/** What a diff compares: the text, or a Word template's text with its tags (its bytes change on every save). */
function textOf(template: { html: string; format: string }): Promise<string> | string {
  return template.format === 'docx' ? wordTextOf(template.html) : template.html;
}
