// The story of an image render: the same source checks and charge as a PDF render (one document
// of the allowance, given back on failure), a capture instead of a print, never stored.

import { DEFAULT_PDF_OPTIONS } from '../../render/pdf-options.ts';
import type { ImageCapture } from '../../render/image-capture.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { OriginCredentials } from '../../render/origin-credentials-options.ts';
import type { PdfOptions } from '../../render/pdf-options.ts';
import type { MarkdownStyle } from '../../render/markdown-style-options.ts';
import type { Account } from '../accounts/keys.ts';
import { tenantOf, withReceipt, type RenderedPdf, type RenderService } from './render.ts';
import type { RenderInput } from './request.ts';
import { sourceSummary, type ReceiptsService } from '../accounts/receipts.ts';

export type ImageRenderOptions = ImageCapture &
  Pick<PdfOptions, 'media' | 'timeout_ms' | 'wait_until' | 'wait_for' | 'wait_ms' | 'wait_for_function'> &
  OriginCredentials &
  MarkdownStyle;

export interface ImageInput extends Pick<RenderInput, 'html' | 'url' | 'markdown' | 'template_id' | 'template_version' | 'data'> {
  options?: ImageRenderOptions;
}

export interface ImageServiceDeps {
  renderer: Renderer;
  render: Pick<RenderService, 'resolveSource' | 'produce'>;
  receipts: ReceiptsService;
}

export class ImageService {
  constructor(private readonly deps: ImageServiceDeps) {}

  /** Captures the source as an image; throws what a PDF render of it would. The bytes come back in `pdf`'s place. */
  async render(input: ImageInput, account: Account, defaults: ImageRenderOptions, requestId?: string): Promise<RenderedPdf & { type: ImageCapture['type'] }> {
    const { type, quality, full_page, clip, viewport, omit_background, ...rest } = input.options ?? defaults;
    const image: ImageCapture = { type, quality, full_page, clip, viewport, omit_background };
    const options: PdfOptions = { ...DEFAULT_PDF_OPTIONS, ...rest };
    const { receipts } = this.deps;
    const trace = receipts.traceFor({ asked: options.receipt, mode: account.receipts, storing: false });
    const report = {
      trace,
      requestId,
      keyId: account.keyId,
      kind: 'image' as const,
      source: sourceSummary(input),
      options: { ...options, ...image },
      startedAt: performance.now(),
    };
    let rendered: RenderedPdf;
    try {
      // As for a PDF: the allowance is held before the source is resolved (template, DNS).
      rendered = await this.deps.render.produce(account, { documents: 1, storage: undefined }, async () => {
        const { html, url, markdown, template_id, template_version, data } = input;
        const style = { css: rest.css, css_mode: rest.css_mode };
        const source = await this.deps.render.resolveSource({ html, url, markdown, template_id, template_version, data, options: style }, account);
        return this.deps.renderer.render({ source, options, image, tenant: tenantOf(account), trace });
      });
    } catch (error) {
      throw withReceipt(error, await receipts.finish({ ...report, error }));
    }
    const receiptId = await receipts.finish({ ...report, bytes: rendered.pdf });
    return { ...rendered, type, receiptIds: receiptId ? [receiptId] : undefined };
  }
}
