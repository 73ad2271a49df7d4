// Screenshots for POST /v1/image on the same pages as PDFs: the viewport and background are set
// before the load (layout depends on them) and undone after, so the page goes back to the lane
// as it came; the capture itself is one Page.captureScreenshot.

import { z } from 'zod';
import type { Protocol } from 'puppeteer-core';
import { between } from '../bounds.ts';
import type { CdpSession } from './cdp-session.ts';

export const IMAGE_TYPES = ['png', 'jpeg', 'webp'] as const;
const MAX_SIDE = 16_384;

export const imageCaptureFields = {
  type: z.enum(IMAGE_TYPES).default('png').describe('Image format; the response Content-Type follows it.'),
  quality: z.int().min(0, between(0, 100)).max(100, between(0, 100)).optional().describe('jpeg and webp only: 0-100. Default: 80.'),
  full_page: z.boolean().default(false).describe('The whole scrollable page instead of the viewport.'),
  clip: z
    .strictObject({
      x: z.number().min(0).max(MAX_SIDE),
      y: z
        .number()
        .min(0)
        .max(MAX_SIDE * 4),
      width: z.number().min(1, between(1, MAX_SIDE)).max(MAX_SIDE, between(1, MAX_SIDE)),
      height: z.number().min(1, between(1, MAX_SIDE)).max(MAX_SIDE, between(1, MAX_SIDE)),
    })
    .optional()
    .describe('Only this rectangle of the page, in CSS pixels (not with full_page).'),
  viewport: z
    .strictObject({
      width: z.int().min(16, between(16, 4096)).max(4096, between(16, 4096)).default(1280),
      height: z.int().min(16, between(16, 4096)).max(4096, between(16, 4096)).default(800),
      device_scale_factor: z.number().min(0.1, between(0.1, 4)).max(4, between(0.1, 4)).default(1),
    })
    .default({ width: 1280, height: 800, device_scale_factor: 1 })
    .describe('The window the page is laid out in. Default: 1280 x 800 at scale 1.'),
  omit_background: z.boolean().default(false).describe('png and webp: a transparent background where the page paints none.'),
};

const imageCaptureSchema = z.strictObject(imageCaptureFields);
export type ImageCapture = z.output<typeof imageCaptureSchema>;

export const IMAGE_CONTENT_TYPES: Record<ImageCapture['type'], string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** Sets the viewport (and a transparent background) before the page loads; returns the undo. */
export async function prepareCapture(session: CdpSession, capture: ImageCapture): Promise<() => Promise<void>> {
  const { width, height, device_scale_factor: deviceScaleFactor } = capture.viewport;
  await session.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile: false });
  if (capture.omit_background) await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  return async () => {
    await session.send('Emulation.clearDeviceMetricsOverride');
    if (capture.omit_background) await session.send('Emulation.setDefaultBackgroundColorOverride', {});
  };
}

/** The image of the loaded page as the capture asks. */
export async function captureImage(session: CdpSession, capture: ImageCapture): Promise<Uint8Array> {
  let clip: Protocol.Page.Viewport | undefined;
  if (capture.clip) clip = { ...capture.clip, scale: 1 };
  else if (capture.full_page) {
    const metrics = (await session.send('Page.getLayoutMetrics')) as Protocol.Page.GetLayoutMetricsResponse;
    const size = metrics.cssContentSize;
    clip = { x: 0, y: 0, width: Math.min(Math.ceil(size.width), MAX_SIDE), height: Math.min(Math.ceil(size.height), MAX_SIDE * 4), scale: 1 };
  }
  const { data } = (await session.send('Page.captureScreenshot', {
    format: capture.type,
    ...(capture.type !== 'png' ? { quality: capture.quality ?? 80 } : {}),
    ...(clip ? { clip } : {}),
    captureBeyondViewport: clip !== undefined,
    fromSurface: true,
  })) as Protocol.Page.CaptureScreenshotResponse;
  return Buffer.from(data, 'base64');
}
