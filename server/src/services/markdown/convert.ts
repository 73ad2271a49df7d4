// Where a Markdown text is turned into HTML (services/markdown/markdown.ts): a README in the request's own
// turn (about 2 ms), anything larger on a worker thread (worker-pool.ts), since conversion takes
// about 1 s per MB with highlighting and must not stall every other caller's requests meanwhile.
// One thread: a huge text delays other large conversions, never the event loop, and leaves the
// second core to Chromium.

import type { MarkdownStyle } from '../../render/markdown-style-options.ts';
import { WorkerPool } from '../../worker-pool.ts';
import { markdownToHtml, type MarkdownPage } from './markdown.ts';

/** A conversion as the worker thread receives it. */
export interface MarkdownTask {
  markdown: string;
  style?: MarkdownStyle & MarkdownPage;
}

/** Texts up to this many characters are converted inline: a thread's round trip costs more than they do. */
const INLINE_MAX_LENGTH = 32 * 1024;

const pool = new WorkerPool<MarkdownTask, string>({
  threads: 1,
  source: new URL('./worker.ts', import.meta.url),
  // In the desktop bundle: dist/electron/markdown-worker.mjs, built by scripts/build-electron.ts.
  bundled: new URL('./markdown-worker.mjs', import.meta.url),
  runInline: async ({ markdown, style }) => markdownToHtml(markdown, style),
  errorFrom: (error) => new Error(error.message),
});

/** The HTML document for a Markdown text, styled as the request's options say. */
export function convertMarkdown(markdown: string, style?: MarkdownStyle & MarkdownPage): Promise<string> {
  if (markdown.length <= INLINE_MAX_LENGTH) return Promise.resolve(markdownToHtml(markdown, style));
  // Only these fields: the request's other options are no business of the thread.
  return pool.run({ markdown, style: style && { css: style.css, css_mode: style.css_mode, lang: style.lang, filename: style.filename } });
}
