// PdfOptions of SPEC.md with their bounds, for the forms; the server checks them again.

import type { PdfFormat, PdfOptions, WaitUntil } from '../api/types.ts';

export const FORMATS: PdfFormat[] = ['A4', 'A3', 'A5', 'Letter', 'Legal', 'Tabloid'];
export const WAIT_UNTIL: WaitUntil[] = ['load', 'domcontentloaded', 'networkidle0', 'networkidle2'];

type Scalar = 'format' | 'landscape' | 'margin' | 'print_background' | 'scale' | 'prefer_css_page_size' | 'media' | 'timeout_ms' | 'wait_until' | 'wait_ms' | 'outline';

export const DEFAULTS: Required<Pick<PdfOptions, Scalar>> = {
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
  outline: false,
};

export const WATERMARK_DEFAULTS = { opacity: 0.2, rotate: 45, font_size: 64, color: '#888888', position: 'center', layer: 'over' } as const;

export const BOUNDS = {
  scale: { min: 0.1, max: 2, step: 0.1 },
  timeout_ms: { min: 1000, max: 60_000, step: 1000 },
  wait_ms: { min: 0, max: 5000, step: 100 },
} as const;

/**
 * Only the options that differ from the defaults, so requests and snippets stay short: empty
 * fields are left out, and so are a watermark without text or image, encryption without an
 * owner password and basic auth without a user name.
 */
export function changedOptions(options: PdfOptions): PdfOptions {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === '') continue;
    if ((DEFAULTS as Record<string, unknown>)[name] === value) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      const nested = withoutEmpty(value as Record<string, unknown>);
      if (nested) out[name] = nested;
    } else if (!Array.isArray(value) || value.length > 0) out[name] = value;
  }
  if (out.watermark && !(out.watermark as Record<string, unknown>).text && !(out.watermark as Record<string, unknown>).image) delete out.watermark;
  if (out.encrypt && !(out.encrypt as Record<string, unknown>).owner_password) delete out.encrypt;
  if (out.basic_auth && !(out.basic_auth as Record<string, unknown>).username) delete out.basic_auth;
  return out as PdfOptions;
}

function withoutEmpty(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, field]) => field !== undefined && field !== '' && !(Array.isArray(field) && field.length === 0));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
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
