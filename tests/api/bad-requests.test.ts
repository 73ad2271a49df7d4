// Bad requests to POST /v1/pdf (and around it): each answers its docs/api.md#errors status and code
// with a `{detail, code}` body that names the field, never a stack, never a hang; the server
// renders fine afterwards.

import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { fastLane } from '../helpers/fake-page-source.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { encryptedPdf, HOSTILE_PDFS, rawPdf } from '../helpers/pdf-cli.ts';

interface BadRequest {
  name: string;
  method?: string;
  path?: string;
  /** An object is sent as JSON; a string or bytes are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The Authorization header to send instead of the test key ('' sends none). */
  authorization?: string;
  status: number;
  code: string;
  /** Text the detail must contain, usually the offending field. */
  names?: string;
  /** Only a real Chromium can refuse it (the fast lane's fake page source compiles no script). */
  needsChromium?: true;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const html = '<p>bad request</p>';
const withOptions = (options: Record<string, unknown>) => ({ html, options: { wait_until: 'load', ...options } });

const TRANSFORM = '/v1/pdf/transform';
const base64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');
const onePage = rawPdf([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
]);
const transformOf = (pdf: Uint8Array, extra: Record<string, unknown> = {}) => ({ pdf: base64(pdf), steps: [{ op: 'flatten' }], ...extra });

/** Hostile and bad PDF inputs (docs/api.md#pdf-inputs): refused with their code, never obeyed. */
const PDF_CASES: BadRequest[] = [
  {
    name: 'a transform of an encrypted PDF without its password',
    path: TRANSFORM,
    body: transformOf(encryptedPdf(onePage, 'secret')),
    status: 422,
    code: 'password_required',
    names: 'password',
  },
  {
    name: 'a transform with the wrong password',
    path: TRANSFORM,
    body: transformOf(encryptedPdf(onePage, 'secret'), { password: 'guess' }),
    status: 422,
    code: 'password_incorrect',
    names: 'pdf',
  },
  {
    name: 'a transform of a PDF damaged beyond repair',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.garbage()),
    status: 422,
    code: 'pdf_unreadable',
    names: 'pdf',
  },
  {
    name: 'a transform of a cyclic page tree',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.cyclicPages()),
    status: 422,
    code: 'pdf_unreadable',
    names: 'pdf',
  },
  {
    name: 'a transform of a page bomb (2001 pages)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.pages(2001)),
    status: 413,
    code: 'payload_too_large',
    names: '2001 pages',
  },
  {
    name: 'a transform of an image bomb (20000 × 20000)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.imageBomb()),
    status: 413,
    code: 'payload_too_large',
    names: 'million pixels',
  },
  {
    name: 'a transform of a decompression bomb (a 1 MB Flate stream of zeros unpacking to 1 GB)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.decompressionBomb()),
    status: 413,
    code: 'payload_too_large',
    names: 'decompression bomb',
  },
  {
    name: 'a transform of bytes that are not a PDF',
    path: TRANSFORM,
    body: { pdf: base64(new TextEncoder().encode('hello')), steps: [{ op: 'flatten' }] },
    status: 400,
    code: 'invalid_request',
    names: 'pdf',
  },
  { name: 'a transform without a PDF', path: TRANSFORM, body: { steps: [{ op: 'flatten' }] }, status: 400, code: 'invalid_request', names: 'document_id' },
  {
    name: 'a transform with an unknown step',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'explode' }] },
    status: 400,
    code: 'invalid_request',
    names: 'steps[0]',
  },
  {
    name: 'a transform rotating by 45 degrees',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'rotate', angle: 45 }] },
    status: 400,
    code: 'invalid_request',
    names: 'steps[0].angle',
  },
  {
    name: 'a transform with steps and preset_id',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'flatten' }], preset_id: 'pre_abc' },
    status: 400,
    code: 'invalid_request',
    names: 'preset_id',
  },
  {
    name: 'a transform with an unknown preset',
    path: TRANSFORM,
    body: { pdf: base64(onePage), preset_id: 'pre_doesNotExist' },
    status: 404,
    code: 'preset_not_found',
    names: 'pre_doesNotExist',
  },
  {
    name: 'a transform of another key’s kind of id',
    path: TRANSFORM,
    body: { document_id: 'doc_missing1', steps: [{ op: 'flatten' }] },
    status: 404,
    code: 'document_not_found',
    names: 'document_id',
  },
];

const CASES: BadRequest[] = [
  ...PDF_CASES,
  // The body itself.
  { name: 'malformed JSON', body: '{"html": "<p>', headers: JSON_TYPE, status: 400, code: 'invalid_json' },
  { name: 'JSON with a trailing comma', body: '{"html": "<p>x</p>",}', headers: JSON_TYPE, status: 400, code: 'invalid_json' },
  { name: 'an array body', body: [{ html }], status: 400, code: 'invalid_request', names: 'request body' },
  { name: 'a JSON string body', body: '"<p>x</p>"', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  { name: 'a JSON number body', body: '42', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  { name: 'a JSON null body', body: 'null', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  {
    name: 'a text/plain body',
    body: JSON.stringify({ html }),
    headers: { 'content-type': 'text/plain' },
    status: 400,
    code: 'invalid_request',
    names: 'application/json',
  },
  {
    name: 'a form-encoded body',
    body: 'html=%3Cp%3Ex%3C%2Fp%3E',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 400,
    code: 'invalid_request',
    names: 'application/json',
  },
  { name: 'no body and no Content-Type', status: 400, code: 'invalid_request', names: 'application/json' },
  { name: 'an empty JSON body', body: '', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'html' },
  {
    name: 'a non-UTF-8 charset',
    body: JSON.stringify({ html }),
    headers: { 'content-type': 'application/json; charset=latin1' },
    status: 400,
    code: 'invalid_request',
    names: 'UTF-8',
  },
  {
    name: 'an unknown Content-Encoding',
    body: JSON.stringify({ html }),
    headers: { ...JSON_TYPE, 'content-encoding': 'snappy' },
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'a gzip body that does not inflate',
    body: 'this is not gzip',
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
    status: 400,
    code: 'invalid_request',
    names: 'Content-Encoding',
  },
  {
    name: 'a gzip body that inflates past 6 MB',
    body: gzipSync(`{"html": "<p>x</p>"${' '.repeat(7 * 1024 * 1024)}}`),
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
    status: 413,
    code: 'payload_too_large',
    names: '6 MB',
  },
  { name: 'a body over 6 MB', body: { html: 'x'.repeat(6 * 1024 * 1024 + 1024) }, status: 413, code: 'payload_too_large', names: '6 MB' },
  {
    name: 'html over 5 MB in a body under 6 MB',
    body: { html: `<p>${'x'.repeat(5 * 1024 * 1024 + 1024)}</p>` },
    status: 413,
    code: 'payload_too_large',
    names: '5 MB',
  },

  // The key comes first: without a valid one, nothing else is looked at.
  { name: 'no Authorization header', authorization: '', body: { html }, status: 401, code: 'unauthorized', names: 'API key' },
  { name: 'an API key that does not exist', authorization: 'Bearer sk_live_000000000000000000000000', body: { html }, status: 401, code: 'unauthorized' },
  { name: 'a key in the wrong scheme', authorization: 'Basic c2tfbGl2ZV94eHg6', body: { html }, status: 401, code: 'unauthorized' },
  { name: 'malformed JSON without a key', authorization: '', body: '{"html": ', headers: JSON_TYPE, status: 401, code: 'unauthorized' },
  { name: 'a body over 6 MB without a key', authorization: '', body: { html: 'x'.repeat(6 * 1024 * 1024 + 1024) }, status: 401, code: 'unauthorized' },

  // The source.
  { name: 'no source at all', body: {}, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'options but no source', body: { options: { format: 'A4' } }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'html and url together', body: { html, url: 'https://example.com/' }, status: 400, code: 'conflicting_source', names: 'html' },
  { name: 'html and template_id together', body: { html, template_id: 'tpl_abcdef12' }, status: 400, code: 'conflicting_source', names: 'template_id' },
  {
    name: 'url and template_id together',
    body: { url: 'https://example.com/', template_id: 'tpl_abcdef12' },
    status: 400,
    code: 'conflicting_source',
    names: 'template_id',
  },
  { name: 'html that is not a string', body: { html: 42 }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'html null', body: { html: null }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'a template_id of the wrong shape', body: { template_id: 'template-1' }, status: 400, code: 'invalid_request', names: 'template_id' },
  { name: 'an unknown template_id', body: { template_id: 'tpl_doesnotexist' }, status: 404, code: 'template_not_found', names: 'tpl_doesnotexist' },
  { name: 'data that is not an object', body: { html, data: [1, 2] }, status: 400, code: 'invalid_request', names: 'data' },
  { name: 'store that is not a boolean', body: { html, store: 'yes' }, status: 400, code: 'invalid_request', names: 'store' },
  { name: 'an unknown top-level field', body: { html, colour: 'red' }, status: 400, code: 'invalid_request', names: 'colour' },
  { name: 'a camelCase top-level field', body: { html, templateId: 'tpl_abcdef12' }, status: 400, code: 'invalid_request', names: 'template_id' },
  {
    name: 'a __proto__ field',
    body: `{"html": "<p>x</p>", "__proto__": {"store": true}}`,
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: '__proto__',
  },

  // Every option, out of bounds or of the wrong type.
  { name: 'options that is not an object', body: { html, options: 'A4' }, status: 400, code: 'invalid_request', names: 'options' },
  { name: 'options null', body: { html, options: null }, status: 400, code: 'invalid_request', names: 'options' },
  { name: 'an unknown paper format', body: withOptions({ format: 'B5' }), status: 400, code: 'invalid_request', names: 'options.format' },
  { name: 'a paper format in the wrong case', body: withOptions({ format: 'a4' }), status: 400, code: 'invalid_request', names: 'options.format' },
  { name: 'landscape as a string', body: withOptions({ landscape: 'true' }), status: 400, code: 'invalid_request', names: 'options.landscape' },
  { name: 'a margin with an unknown unit', body: withOptions({ margin: '1furlong' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin in a relative unit (em)', body: withOptions({ margin: '2em' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin in a relative unit (%)', body: withOptions({ margin: '10%' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin that is garbage', body: withOptions({ margin: 'wide' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin without a unit', body: withOptions({ margin: '12' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a negative margin', body: withOptions({ margin: '-1cm' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin of five lengths', body: withOptions({ margin: '1cm 1cm 1cm 1cm 1cm' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  {
    name: 'margins wider than the paper',
    body: withOptions({ margin: '0 5in', format: 'Letter' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.margin',
  },
  {
    name: 'margins taller than the paper',
    body: withOptions({ margin: '6in 1cm', format: 'A4' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.margin',
  },
  { name: 'a margin as a number', body: withOptions({ margin: 10 }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'print_background as a number', body: withOptions({ print_background: 1 }), status: 400, code: 'invalid_request', names: 'options.print_background' },
  { name: 'scale 0.05', body: withOptions({ scale: 0.05 }), status: 400, code: 'invalid_request', names: 'options.scale must be between 0.1 and 2.0' },
  { name: 'scale 2.5', body: withOptions({ scale: 2.5 }), status: 400, code: 'invalid_request', names: 'options.scale must be between 0.1 and 2.0' },
  { name: 'scale as a string', body: withOptions({ scale: '1' }), status: 400, code: 'invalid_request', names: 'options.scale' },
  {
    name: 'scale that overflows to infinity',
    body: '{"html": "<p>x</p>", "options": {"scale": 1e400}}',
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: 'options.scale',
  },
  {
    name: 'page_ranges that is garbage',
    body: withOptions({ page_ranges: 'first to third' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.page_ranges',
  },
  { name: 'page_ranges with an empty entry', body: withOptions({ page_ranges: '1,,2' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with a negative page', body: withOptions({ page_ranges: '-3' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with page 0', body: withOptions({ page_ranges: '0' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with a backwards range', body: withOptions({ page_ranges: '3-2' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges as a number', body: withOptions({ page_ranges: 2 }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  {
    name: 'prefer_css_page_size as a string',
    body: withOptions({ prefer_css_page_size: 'yes' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.prefer_css_page_size',
  },
  { name: 'an unknown media type', body: withOptions({ media: 'tv' }), status: 400, code: 'invalid_request', names: 'options.media' },
  {
    name: 'timeout_ms 999',
    body: withOptions({ timeout_ms: 999 }),
    status: 400,
    code: 'invalid_request',
    names: 'options.timeout_ms must be between 1000 and 60000',
  },
  {
    name: 'timeout_ms 60001',
    body: withOptions({ timeout_ms: 60_001 }),
    status: 400,
    code: 'invalid_request',
    names: 'options.timeout_ms must be between 1000 and 60000',
  },
  { name: 'timeout_ms 1.5', body: withOptions({ timeout_ms: 1.5 }), status: 400, code: 'invalid_request', names: 'options.timeout_ms must be a whole number' },
  { name: 'an unknown wait_until', body: withOptions({ wait_until: 'idle' }), status: 400, code: 'invalid_request', names: 'options.wait_until' },
  { name: 'an empty wait_for', body: withOptions({ wait_for: '' }), status: 400, code: 'invalid_request', names: 'options.wait_for' },
  { name: 'wait_ms -1', body: withOptions({ wait_ms: -1 }), status: 400, code: 'invalid_request', names: 'options.wait_ms must be between 0 and 5000' },
  { name: 'wait_ms 5001', body: withOptions({ wait_ms: 5001 }), status: 400, code: 'invalid_request', names: 'options.wait_ms must be between 0 and 5000' },
  {
    name: 'a header_template that is not a string',
    body: withOptions({ header_template: true }),
    status: 400,
    code: 'invalid_request',
    names: 'options.header_template',
  },
  { name: 'an unknown option', body: withOptions({ colour: 'red' }), status: 400, code: 'invalid_request', names: 'options.colour' },
  { name: 'a camelCase option', body: withOptions({ printBackground: false }), status: 400, code: 'invalid_request', names: 'print_background' },

  // Post-processing, custom paper, wait_for_function.
  { name: 'metadata that is not an object', body: withOptions({ metadata: 'Title' }), status: 400, code: 'invalid_request', names: 'options.metadata' },
  {
    name: 'an unknown metadata field',
    body: withOptions({ metadata: { producer: 'x' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.metadata.producer',
  },
  {
    name: 'metadata keywords as a string',
    body: withOptions({ metadata: { keywords: 'a, b' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.metadata.keywords',
  },
  { name: 'outline that is not a boolean', body: withOptions({ outline: 'yes' }), status: 400, code: 'invalid_request', names: 'options.outline' },
  {
    name: 'encrypt without owner_password',
    body: withOptions({ encrypt: { user_password: 'u' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.encrypt.owner_password',
  },
  {
    name: 'an empty owner_password',
    body: withOptions({ encrypt: { owner_password: '' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.encrypt.owner_password',
  },
  {
    name: 'a password over 127 bytes',
    body: withOptions({ encrypt: { owner_password: 'é'.repeat(70) } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.encrypt.owner_password must be at most 127 bytes',
  },
  {
    name: 'an unknown print permission',
    body: withOptions({ encrypt: { owner_password: 'o', permissions: { print: 'yes' } } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.encrypt.permissions.print',
  },
  {
    name: 'an unknown permission',
    body: withOptions({ encrypt: { owner_password: 'o', permissions: { extract: true } } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.encrypt.permissions.extract',
  },
  {
    name: 'a watermark with neither text nor image',
    body: withOptions({ watermark: { opacity: 0.5 } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark needs exactly one of text and image',
  },
  {
    name: 'a watermark with text and image',
    body: withOptions({ watermark: { text: 'A', image: 'data:image/png;base64,AAAA' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark needs exactly one',
  },
  {
    name: 'watermark text outside Latin',
    body: withOptions({ watermark: { text: '機密' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.text must use Latin characters',
  },
  {
    name: 'a watermark image that is not a data: URI',
    body: withOptions({ watermark: { image: 'https://example.com/logo.png' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.image',
  },
  {
    name: 'a watermark image of another type',
    body: withOptions({ watermark: { image: 'data:image/gif;base64,R0lGOD' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.image must be a data: URI of a PNG or JPEG',
  },
  {
    name: 'a PNG watermark that does not decode',
    body: withOptions({ watermark: { image: 'data:image/png;base64,AAAA' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.image is not a valid PNG',
  },
  {
    name: 'watermark opacity 1.5',
    body: withOptions({ watermark: { text: 'A', opacity: 1.5 } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.opacity must be between 0 and 1',
  },
  {
    name: 'watermark font_size 2',
    body: withOptions({ watermark: { text: 'A', font_size: 2 } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.font_size must be between 4 and 400',
  },
  {
    name: 'a watermark colour by name',
    body: withOptions({ watermark: { text: 'A', color: 'red' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.color',
  },
  {
    name: 'an unknown watermark position',
    body: withOptions({ watermark: { text: 'A', position: 'middle' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.position',
  },
  {
    name: 'watermark pages from 0',
    body: withOptions({ watermark: { text: 'A', pages: '0-2' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.pages',
  },
  {
    name: 'an unknown watermark layer',
    body: withOptions({ watermark: { text: 'A', layer: 'middle' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.watermark.layer',
  },
  { name: 'width without height', body: withOptions({ width: '10cm' }), status: 400, code: 'invalid_request', names: 'options.height is required with width' },
  { name: 'height without width', body: withOptions({ height: '10cm' }), status: 400, code: 'invalid_request', names: 'options.width is required with height' },
  {
    name: 'a width in percent',
    body: withOptions({ width: '50%', height: '10cm' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.width must be a CSS length',
  },
  { name: 'a paper width of 300 inches', body: withOptions({ width: '300in', height: '10in' }), status: 400, code: 'invalid_request', names: 'options.width' },
  {
    name: 'margins wider than custom paper',
    body: withOptions({ width: '2in', height: '2in', margin: '1in' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.margin leaves no room for content on the custom paper',
  },
  {
    name: 'an empty wait_for_function',
    body: withOptions({ wait_for_function: '' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.wait_for_function',
  },
  {
    name: 'a wait_for_function that does not compile',
    body: withOptions({ wait_for_function: 'window.(' }),
    status: 400,
    code: 'invalid_request',
    names: 'options.wait_for_function',
    needsChromium: true,
  },

  // Credentials for the url's origin.
  {
    name: 'http_headers on an html render',
    body: withOptions({ http_headers: { 'X-A': '1' } }),
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers is only for url renders',
  },
  {
    name: 'cookies on a template render',
    body: { template_id: 'tpl_abcdef12', options: { cookies: [{ name: 'a', value: 'b' }] } },
    status: 400,
    code: 'invalid_request',
    names: 'options.cookies is only for url renders',
  },
  {
    name: 'a Host header',
    body: { url: 'https://example.com/', options: { http_headers: { Host: 'evil.example' } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers',
  },
  {
    name: 'a Cookie header',
    body: { url: 'https://example.com/', options: { http_headers: { cookie: 'a=b' } } },
    status: 400,
    code: 'invalid_request',
    names: 'use cookies',
  },
  {
    name: 'a Proxy-Authorization header',
    body: { url: 'https://example.com/', options: { http_headers: { 'Proxy-Authorization': 'x' } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers',
  },
  {
    name: 'a hop-by-hop header',
    body: { url: 'https://example.com/', options: { http_headers: { Connection: 'close' } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers',
  },
  {
    name: 'a header value with a line break',
    body: { url: 'https://example.com/', options: { http_headers: { 'X-A': 'a\r\nX-B: b' } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers.X-A must not contain line breaks',
  },
  {
    name: '21 http_headers',
    body: { url: 'https://example.com/', options: { http_headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) } },
    status: 400,
    code: 'invalid_request',
    names: 'options.http_headers must have at most 20 headers',
  },
  {
    name: 'a cookie without a name',
    body: { url: 'https://example.com/', options: { cookies: [{ value: 'b' }] } },
    status: 400,
    code: 'invalid_request',
    names: 'options.cookies[0].name',
  },
  {
    name: 'a cookie value with a semicolon',
    body: { url: 'https://example.com/', options: { cookies: [{ name: 'a', value: 'b; c=d' }] } },
    status: 400,
    code: 'invalid_request',
    names: 'options.cookies[0].value',
  },
  {
    name: 'an unknown same_site',
    body: { url: 'https://example.com/', options: { cookies: [{ name: 'a', value: 'b', same_site: 'Loose' }] } },
    status: 400,
    code: 'invalid_request',
    names: 'options.cookies[0].same_site',
  },
  {
    name: 'a basic_auth username with a colon',
    body: { url: 'https://example.com/', options: { basic_auth: { username: 'a:b', password: 'c' } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.basic_auth.username',
  },
  {
    name: 'a user_agent with a line break',
    body: { url: 'https://example.com/', options: { user_agent: 'UA\nX: y' } },
    status: 400,
    code: 'invalid_request',
    names: 'options.user_agent',
  },

  // POST /v1/pdf/merge.
  { name: 'a merge without sources', path: '/v1/pdf/merge', body: {}, status: 400, code: 'invalid_request', names: 'sources' },
  {
    name: 'a merge with no sources',
    path: '/v1/pdf/merge',
    body: { sources: [] },
    status: 400,
    code: 'invalid_request',
    names: 'sources must have at least 1',
  },
  {
    name: 'a merge of 51 sources',
    path: '/v1/pdf/merge',
    body: { sources: Array.from({ length: 51 }, () => ({ html })) },
    status: 400,
    code: 'invalid_request',
    names: 'sources must have at most 50',
  },
  {
    name: 'a merge source with nothing in it',
    path: '/v1/pdf/merge',
    body: { sources: [{ html }, { page_ranges: '1' }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[1] needs one of document_id, pdf, html, url, markdown, template_id or office',
  },
  {
    name: 'a merge source with two kinds',
    path: '/v1/pdf/merge',
    body: { sources: [{ html, document_id: 'doc_abc123' }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0] takes only one of',
  },
  {
    name: 'a merge source pdf that is not base64',
    path: '/v1/pdf/merge',
    body: { sources: [{ pdf: 'not base64!' }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].pdf must be base64',
  },
  {
    name: 'a merge source pdf that is not a PDF',
    path: '/v1/pdf/merge',
    body: { sources: [{ pdf: 'aGVsbG8=' }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].pdf is not a PDF',
  },
  {
    name: 'options on a stored-document source',
    path: '/v1/pdf/merge',
    body: { sources: [{ document_id: 'doc_abc123', options: { scale: 1 } }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].options is only for html, url, markdown and template_id sources',
  },
  {
    name: 'template_version on an uploaded-PDF source',
    path: '/v1/pdf/merge',
    body: { sources: [{ pdf: 'JVBERi0=', template_version: 1 }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].template_version is only for html, url, markdown and template_id sources',
  },
  {
    name: 'encrypt on a merge source',
    path: '/v1/pdf/merge',
    body: { sources: [{ html, options: { encrypt: { owner_password: 'o' } } }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].options.encrypt',
  },
  {
    name: 'a merge source page_ranges from 0',
    path: '/v1/pdf/merge',
    body: { sources: [{ html, page_ranges: '0' }] },
    status: 400,
    code: 'invalid_request',
    names: 'sources[0].page_ranges',
  },
  {
    name: 'a page option in the merge options',
    path: '/v1/pdf/merge',
    body: { sources: [{ html }], options: { format: 'A4' } },
    status: 400,
    code: 'invalid_request',
    names: 'options.format is not a known field',
  },
  {
    name: 'an unknown stored document in a merge',
    path: '/v1/pdf/merge',
    body: { sources: [{ document_id: 'doc_unknown1' }] },
    status: 404,
    code: 'document_not_found',
    names: 'sources[0]',
  },
  { name: 'GET /v1/pdf/merge', method: 'GET', path: '/v1/pdf/merge', status: 405, code: 'method_not_allowed', names: 'POST' },

  // POST /v1/image.
  { name: 'an image without a source', path: '/v1/image', body: {}, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'an unknown image type', path: '/v1/image', body: { html, options: { type: 'gif' } }, status: 400, code: 'invalid_request', names: 'options.type' },
  {
    name: 'quality on a png',
    path: '/v1/image',
    body: { html, options: { quality: 80 } },
    status: 400,
    code: 'invalid_request',
    names: 'options.quality is only for jpeg and webp',
  },
  {
    name: 'quality 101',
    path: '/v1/image',
    body: { html, options: { type: 'jpeg', quality: 101 } },
    status: 400,
    code: 'invalid_request',
    names: 'options.quality must be between 0 and 100',
  },
  {
    name: 'clip with full_page',
    path: '/v1/image',
    body: { html, options: { full_page: true, clip: { x: 0, y: 0, width: 10, height: 10 } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.clip cannot be combined with full_page',
  },
  {
    name: 'a clip of width 0',
    path: '/v1/image',
    body: { html, options: { clip: { x: 0, y: 0, width: 0, height: 10 } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.clip.width',
  },
  {
    name: 'omit_background on a jpeg',
    path: '/v1/image',
    body: { html, options: { type: 'jpeg', omit_background: true } },
    status: 400,
    code: 'invalid_request',
    names: 'options.omit_background needs png or webp',
  },
  {
    name: 'a viewport 5000 wide',
    path: '/v1/image',
    body: { html, options: { viewport: { width: 5000 } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.viewport.width must be between 16 and 4096',
  },
  {
    name: 'device_scale_factor 5',
    path: '/v1/image',
    body: { html, options: { viewport: { device_scale_factor: 5 } } },
    status: 400,
    code: 'invalid_request',
    names: 'options.viewport.device_scale_factor',
  },
  {
    name: 'a PDF option on an image',
    path: '/v1/image',
    body: { html, options: { format: 'A4' } },
    status: 400,
    code: 'invalid_request',
    names: 'options.format is not a known field',
  },
  {
    name: 'user_agent on an html image',
    path: '/v1/image',
    body: { html, options: { user_agent: 'x' } },
    status: 400,
    code: 'invalid_request',
    names: 'options.user_agent is only for url renders',
  },
  { name: 'GET /v1/image', method: 'GET', path: '/v1/image', status: 405, code: 'method_not_allowed', names: 'POST' },

  // The url: http(s) only, and never a private address.
  { name: 'a file: url', body: { url: 'file:///etc/passwd' }, status: 400, code: 'url_blocked' },
  { name: 'an ftp: url', body: { url: 'ftp://ftp.example.com/file.html' }, status: 400, code: 'url_blocked' },
  { name: 'a javascript: url', body: { url: 'javascript:alert(1)' }, status: 400, code: 'url_blocked' },
  { name: 'a data: url', body: { url: 'data:text/html,<p>x</p>' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 127.0.0.1', body: { url: 'http://127.0.0.1/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to localhost', body: { url: 'http://localhost:8080/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to the metadata address', body: { url: 'http://169.254.169.254/latest/meta-data/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to [::1]', body: { url: 'http://[::1]/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 10.0.0.1', body: { url: 'https://10.0.0.1/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 0.0.0.0', body: { url: 'http://0.0.0.0/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to loopback spelled as a decimal number', body: { url: 'http://2130706433/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to IPv4-mapped IPv6 loopback', body: { url: 'http://[::ffff:127.0.0.1]/' }, status: 400, code: 'url_blocked' },

  // The filename.
  { name: 'a filename with a slash', body: { html, filename: 'reports/q1.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a backslash', body: { html, filename: 'reports\\q1.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a control character', body: { html, filename: 'q1\u0007.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a line break', body: { html, filename: 'q1.pdf\r\nX-Injected: 1' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'an empty filename', body: { html, filename: '' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename over 255 characters', body: { html, filename: `${'a'.repeat(260)}.pdf` }, status: 400, code: 'invalid_request', names: 'filename' },

  {
    name: 'a filename holding a lone surrogate',
    body: '{"html": "<p>x</p>", "filename": "\\ud800.pdf", "store": true}',
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: 'filename',
  },
  {
    name: 'a batch item filename holding a lone surrogate',
    path: '/v1/pdf/batch',
    body: '{"requests": [{"html": "<p>x</p>", "filename": "a\\udfff.pdf"}]}',
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: 'requests[0].filename',
  },

  // Nesting: refused on the raw bytes, before anything recurses over it.
  {
    name: 'a batch body nested 50,000 levels deep',
    path: '/v1/pdf/batch',
    body: `{"requests": [{"html": "<p>x</p>", "data": {"a": ${'['.repeat(50_000)}${']'.repeat(50_000)}}}]}`,
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: 'deeper than 128 levels',
  },
  {
    name: 'data nested 50,000 objects deep',
    body: `{"html": "<p>x</p>", "data": ${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    headers: JSON_TYPE,
    status: 400,
    code: 'invalid_request',
    names: 'deeper than 128 levels',
  },
  {
    name: 'brackets inside strings do not count as nesting',
    body: { html: `<p>${'[{'.repeat(1000)}</p>`, filename: 'deep.pdf', options: { wait_until: 'load', scale: 3 } },
    status: 400,
    code: 'invalid_request',
    names: 'options.scale',
  },

  // The playground's body limit applies before parsing.
  {
    name: 'a playground body over 1 MB',
    path: '/v1/playground/pdf',
    authorization: '',
    body: { html: 'x'.repeat(1024 * 1024 + 10) },
    status: 413,
    code: 'payload_too_large',
    names: '1 MB',
  },

  // Routing.
  { name: 'an unknown route', method: 'GET', path: '/v1/nothing-here', status: 404, code: 'not_found', names: '/v1/nothing-here' },
  { name: 'a POST to an unknown route', method: 'POST', path: '/v1/pdfs', body: { html }, status: 404, code: 'not_found', names: '/v1/pdfs' },
  { name: 'GET /v1/pdf', method: 'GET', path: '/v1/pdf', status: 405, code: 'method_not_allowed', names: 'POST' },
  { name: 'PUT /v1/pdf', method: 'PUT', path: '/v1/pdf', body: { html }, status: 405, code: 'method_not_allowed', names: 'POST' },
  { name: 'DELETE /v1/pdf', method: 'DELETE', path: '/v1/pdf', status: 405, code: 'method_not_allowed', names: 'POST' },
];

async function send(server: TestServer, bad: BadRequest): Promise<Response> {
  const authorization = bad.authorization ?? `Bearer ${server.key.key}`;
  const headers: Record<string, string> = { ...(authorization ? { authorization } : {}), ...(bad.headers ?? {}) };
  let body: string | Blob | undefined;
  if (typeof bad.body === 'string') body = bad.body;
  else if (bad.body instanceof Uint8Array) body = new Blob([new Uint8Array(bad.body)]);
  else if (bad.body !== undefined) {
    body = JSON.stringify(bad.body);
    headers['content-type'] ??= 'application/json';
  }
  return fetch(server.url + (bad.path ?? '/v1/pdf'), { method: bad.method ?? 'POST', headers, body });
}

test('bad requests answer their contract status and code with a sentence naming the field', { timeout: 180_000 }, async (t) => {
  assert.ok(CASES.length >= 40, `only ${CASES.length} cases`);
  const server = await startTestServer(t);

  for (const bad of CASES) {
    const skip = fastLane() && bad.needsChromium ? 'needs a real Chromium (fast lane)' : false;
    await t.test(`${bad.name} answers ${bad.status} ${bad.code}`, { skip }, async () => {
      const response = await send(server, bad);
      const text = await response.text();
      assert.equal(response.status, bad.status, `status for ${bad.name}: ${text.slice(0, 300)}`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(response.headers.get('x-request-id'), 'X-Request-Id is missing');
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['code', 'detail'], `body is exactly {detail, code}: ${text.slice(0, 300)}`);
      assert.equal(body.code, bad.code, `code for ${bad.name}: ${String(body.detail)}`);
      const detail = body.detail as string;
      assert.equal(typeof detail, 'string');
      assert.match(detail, /\w+ \w+/, 'detail is a sentence of several words');
      if (bad.names) assert.ok(detail.includes(bad.names), `detail "${detail}" should name ${bad.names}`);
      assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|Error:/, 'no stack trace in the body');
      if (bad.status === 405) assert.equal(response.headers.get('allow'), 'POST');
    });
  }

  await t.test('the server still renders after every bad request', async () => {
    const response = await server.render({ html: '<h1>Still standing</h1>', options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
    const pdf = await inspectPdf(await response.arrayBuffer());
    assert.equal(pdf.pages.length, 1);
    // The fast lane's fake page source prints a blank page: only a real Chromium prints the text.
    if (!fastLane()) assert.match(pdf.text, /Still standing/);
  });
});

test('bad requests in parallel are all answered and leave the server rendering', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const small = CASES.filter((bad) => bad.status !== 413 && !(fastLane() && bad.needsChromium));
  const responses = await Promise.all(
    small.map((bad) => send(server, bad).then(async (response) => ({ bad, status: response.status, body: await response.text() }))),
  );
  for (const { bad, status, body } of responses) assert.equal(status, bad.status, `${bad.name}: ${body.slice(0, 200)}`);
  const response = await server.render({ html: '<p>after the storm</p>', options: { wait_until: 'load' } });
  assert.equal(response.status, 200);
  const pdf = await inspectPdf(await response.arrayBuffer());
  assert.equal(pdf.pages.length, 1);
  if (!fastLane()) assert.match(pdf.text, /after the storm/);
});
