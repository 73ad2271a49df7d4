// PdfOptions of SPEC.md with their bounds, for the forms; the server checks them again.

import type { PdfFormat, PdfOptions, WaitUntil } from '../api/types.ts';

export const FORMATS: PdfFormat[] = ['A4', 'A3', 'A5', 'Letter', 'Legal', 'Tabloid'];
export const WAIT_UNTIL: WaitUntil[] = ['load', 'domcontentloaded', 'networkidle0', 'networkidle2'];

export const DEFAULTS: Required<Omit<PdfOptions, 'page_ranges' | 'wait_for'>> = {
  format: 'A4',
  landscape: false,
  margin: '1cm',
  print_background: true,
  scale: 1,
  prefer_css_page_size: false,
  media: 'print',
  timeout_ms: 30_000,
  wait_until: 'networkidle0',
  wait_ms: 0,
};

export const BOUNDS = {
  scale: { min: 0.1, max: 2, step: 0.1 },
  timeout_ms: { min: 1000, max: 60_000, step: 1000 },
  wait_ms: { min: 0, max: 5000, step: 100 },
} as const;

/** Only the options that differ from the defaults, so requests and snippets stay short. */
export function changedOptions(options: PdfOptions): PdfOptions {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === '') continue;
    if ((DEFAULTS as Record<string, unknown>)[name] === value) continue;
    out[name] = value;
  }
  return out as PdfOptions;
}

/** A sentence per option outside its bounds, keyed by option name. */
export function optionProblems(options: PdfOptions): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of ['scale', 'timeout_ms', 'wait_ms'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const { min, max } = BOUNDS[name];
    if (!Number.isFinite(value) || value < min || value > max) problems[name] = `must be between ${min} and ${max}`;
    else if (name !== 'scale' && !Number.isInteger(value)) problems[name] = 'must be a whole number';
  }
  return problems;
}
