// PDF input settings: what the streams of a PDF a caller sends (an upload, a stored document, a
// merge source, a hot-folder file) may unpack to, and how long counting them may take (pdf/stream-budget.ts).
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { integer, setting } from './parsers.ts';

const MiB = 1024 * 1024;

export const pdfInputSettings = {
  pdfStreamMaxBytes: setting(
    'PDF_STREAM_MAX_BYTES',
    512 * MiB,
    integer(1024, 512 * MiB),
    'Bytes one stream of a PDF input may unpack to (its whole filter chain); past it: 413 payload_too_large, before any tool decodes it.',
  ),
  pdfStreamsMaxBytes: setting(
    'PDF_STREAMS_MAX_BYTES',
    2048 * MiB,
    integer(1024, 8192 * MiB),
    'Bytes all the streams of a PDF input may unpack to together; past it: 413 payload_too_large.',
  ),
  pdfStreamCheckTimeoutMs: setting(
    'PDF_STREAM_CHECK_TIMEOUT_MS',
    20_000,
    integer(100, 120_000),
    'Longest time counting what a PDF input unpacks to may take; past it the input is refused as a likely bomb: 413 payload_too_large.',
  ),
} as const;

/** The stream budget as pdf/stream-budget.ts takes it, from the Config's three settings. */
export function decodedLimitsOf(config: { pdfStreamMaxBytes: number; pdfStreamsMaxBytes: number; pdfStreamCheckTimeoutMs: number }) {
  return { streamBytes: config.pdfStreamMaxBytes, totalBytes: config.pdfStreamsMaxBytes, timeoutMs: config.pdfStreamCheckTimeoutMs };
}
