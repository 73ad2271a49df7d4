// The story of an image render: the same source checks and charge as a PDF render (one document
// of the allowance, given back on failure), a capture instead of a print, never stored.

import { DEFAULT_PDF_OPTIONS } from '../render/pdf-options.ts';
import type { ImageCapture } from '../render/image-capture.ts';
import type { Renderer } from '../render/renderer.ts';
import type { OriginCredentials } from '../render/origin-credentials-options.ts';
import type { PdfOptions } from '../render/pdf-options.ts';
import type { Account } from './keys.ts';
import type { RenderedPdf, RenderInput, RenderService } from './render.ts';

export type ImageRenderOptions = ImageCapture & Pick<PdfOptions, 'media' | 'timeout_ms' | 'wait_until' | 'wait_for' | 'wait_ms' | 'wait_for_function'> & OriginCredentials;

export interface ImageInput extends Pick<RenderInput, 'html' | 'url' | 'template_id' | 'template_version' | 'data'> {
  options?: ImageRenderOptions;
}

export interface ImageServiceDeps {
  renderer: Renderer;
  render: Pick<RenderService, 'resolveSource' | 'produce'>;
}

export class ImageService {
  constructor(private readonly deps: ImageServiceDeps) {}

  /** Captures the source as an image; throws what a PDF render of it would. The bytes come back in `pdf`'s place. */
  async render(input: ImageInput, account: Account, defaults: ImageRenderOptions): Promise<RenderedPdf & { type: ImageCapture['type'] }> {
    const source = await this.deps.render.resolveSource({ html: input.html, url: input.url, template_id: input.template_id, template_version: input.template_version, data: input.data }, account);
    const { type, quality, full_page, clip, viewport, omit_background, ...rest } = input.options ?? defaults;
    const image: ImageCapture = { type, quality, full_page, clip, viewport, omit_background };
    const options: PdfOptions = { ...DEFAULT_PDF_OPTIONS, ...rest };
    const rendered = await this.deps.render.produce(account, { documents: 1, storage: undefined }, () => this.deps.renderer.render({ source, options, image }));
    return { ...rendered, type };
  }
}
