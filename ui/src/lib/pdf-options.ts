// The page options' defaults, bounds and choices, for the forms: read from the server's own
// OpenAPI document (/openapi.json, generated from the zod schemas that validate requests), so
// they are declared once, on the server. The server checks every value again.

import { call } from '../api/client.ts';
import type { PdfFormat, PdfOptions, WaitUntil, WatermarkPosition } from '../api/types.ts';

type Scalar =
  | 'format'
  | 'landscape'
  | 'margin'
  | 'print_background'
  | 'scale'
  | 'prefer_css_page_size'
  | 'media'
  | 'timeout_ms'
  | 'wait_until'
  | 'wait_ms'
  | 'outline';
type Bounded = 'scale' | 'timeout_ms' | 'wait_ms';
type WatermarkBounded = 'opacity' | 'rotate' | 'font_size';

export interface Bounds {
  min: number;
  max: number;
  step: number;
}

export interface OptionSpec {
  defaults: Required<Pick<PdfOptions, Scalar>>;
  bounds: Record<Bounded, Bounds>;
  formats: PdfFormat[];
  waitUntil: WaitUntil[];
  /** options.timeout_ms as the playground caps it (PLAYGROUND_MAX_TIMEOUT_MS, the x-max-timeout-ms of its operation). */
  playgroundTimeout: Bounds;
  watermark: {
    defaults: { opacity: number; rotate: number; font_size: number; color: string; position: WatermarkPosition; layer: 'over' | 'under' };
    bounds: Record<WatermarkBounded, Bounds>;
    positions: WatermarkPosition[];
  };
  /** The PDF/A levels options.pdf_a takes, in their long spelling ("PDF/A-2b"). */
  pdfALevels: string[];
  /** The PDF/UA levels options.pdf_ua takes ("PDF/UA-1"); none from a server without it. */
  pdfUaLevels: string[];
  /** The PAdES levels options.sign.level takes, and its default. */
  sign: { levels: string[]; defaultLevel: string };
}

/** How far one arrow press moves a number field: a form's choice, not the API's. */
const STEPS: Record<Bounded | WatermarkBounded, number> = { scale: 0.1, timeout_ms: 1000, wait_ms: 100, opacity: 0.05, rotate: 1, font_size: 1 };

interface JsonSchema {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
}

let loading: Promise<OptionSpec> | undefined;

/** The spec from the server's /openapi.json, fetched once per page load. */
export function loadOptionSpec(): Promise<OptionSpec> {
  loading ??= call('GET', '/openapi.json')
    .then((response) => response.json())
    .then(optionSpecFrom);
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Reads the page options of POST /v1/pdf's request body out of an OpenAPI document. */
export function optionSpecFrom(document: unknown): OptionSpec {
  const body = (document as { paths?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } }> }).paths?.['/v1/pdf']
    ?.post?.requestBody?.content?.['application/json']?.schema;
  const options = property(body ?? {}, 'options');
  const watermark = property(options, 'watermark');
  const defaultOf = <T>(schema: JsonSchema, name: string) => property(schema, name).default as T;
  const boundsOf = (schema: JsonSchema, name: Bounded | WatermarkBounded): Bounds => {
    const { minimum, maximum } = property(schema, name);
    if (minimum === undefined || maximum === undefined) throw new Error(`/openapi.json gives no bounds for ${name}`);
    return { min: minimum, max: maximum, step: STEPS[name] };
  };
  const choicesOf = <T>(schema: JsonSchema, name: string) => (property(schema, name).enum ?? []) as T[];
  const scalars: Scalar[] = [
    'format',
    'landscape',
    'margin',
    'print_background',
    'scale',
    'prefer_css_page_size',
    'media',
    'timeout_ms',
    'wait_until',
    'wait_ms',
    'outline',
  ];
  const timeout = boundsOf(options, 'timeout_ms');
  const playgroundCap = (document as { paths?: Record<string, { post?: { 'x-max-timeout-ms'?: number } }> }).paths?.['/v1/playground/pdf']?.post?.[
    'x-max-timeout-ms'
  ];
  return {
    playgroundTimeout: { ...timeout, max: typeof playgroundCap === 'number' ? Math.min(timeout.max, playgroundCap) : timeout.max },
    defaults: Object.fromEntries(scalars.map((name) => [name, defaultOf(options, name)])) as OptionSpec['defaults'],
    bounds: { scale: boundsOf(options, 'scale'), timeout_ms: timeout, wait_ms: boundsOf(options, 'wait_ms') },
    formats: choicesOf(options, 'format'),
    waitUntil: choicesOf(options, 'wait_until'),
    watermark: {
      defaults: Object.fromEntries(
        ['opacity', 'rotate', 'font_size', 'color', 'position', 'layer'].map((name) => [name, defaultOf(watermark, name)]),
      ) as OptionSpec['watermark']['defaults'],
      bounds: { opacity: boundsOf(watermark, 'opacity'), rotate: boundsOf(watermark, 'rotate'), font_size: boundsOf(watermark, 'font_size') },
      positions: choicesOf(watermark, 'position'),
    },
    pdfALevels: choicesOf<string>(options, 'pdf_a').filter((level) => level.startsWith('PDF/A-')),
    pdfUaLevels: (options.properties?.pdf_ua?.enum ?? []) as string[],
    sign: { levels: choicesOf<string>(property(options, 'sign'), 'level'), defaultLevel: defaultOf<string>(property(options, 'sign'), 'level') },
  };
}

function property(schema: JsonSchema, name: string): JsonSchema {
  const found = schema.properties?.[name];
  if (!found) throw new Error(`/openapi.json does not describe the page option ${name}`);
  return found;
}

/**
 * Only the options that differ from the defaults, so requests and snippets stay short: empty
 * fields are left out, and so are a watermark without text or image, encryption without an
 * owner password, basic auth without a user name and an e-invoice without its XML.
 */
export function changedOptions(options: PdfOptions, spec: OptionSpec): PdfOptions {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === '') continue;
    if ((spec.defaults as Record<string, unknown>)[name] === value) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      const nested = withoutEmpty(value as Record<string, unknown>);
      if (nested) out[name] = nested;
    } else if (!Array.isArray(value) || value.length > 0) out[name] = value;
  }
  if (out.watermark && !(out.watermark as Record<string, unknown>).text && !(out.watermark as Record<string, unknown>).image) delete out.watermark;
  if (out.encrypt && !(out.encrypt as Record<string, unknown>).owner_password) delete out.encrypt;
  if (out.basic_auth && !(out.basic_auth as Record<string, unknown>).username) delete out.basic_auth;
  const invoice = out.e_invoice as Record<string, unknown> | undefined;
  if (invoice && invoice.xml === undefined && invoice.invoice === undefined && invoice.from_data === undefined) delete out.e_invoice;
  return out as PdfOptions;
}

function withoutEmpty(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value).filter(([, field]) => field !== undefined && field !== '' && !(Array.isArray(field) && field.length === 0));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A sentence per option outside its bounds, keyed by option name. */
export function optionProblems(options: PdfOptions, spec: OptionSpec): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of ['scale', 'timeout_ms', 'wait_ms'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const { min, max } = spec.bounds[name];
    if (!Number.isFinite(value) || value < min || value > max) problems[name] = `must be between ${min} and ${max}`;
    else if (name !== 'scale' && !Number.isInteger(value)) problems[name] = 'must be a whole number';
  }
  return problems;
}
