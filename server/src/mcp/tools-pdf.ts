// The tools on a PDF the caller holds (base64, or a stored document_id): inspect_pdf, transform_pdf
// (split, pages, rotate, compress, fill a form...), sign_pdf with one of the key's certificates,
// and list_certificates (the ones it may sign with). Each is one call of the API.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { signOptionsSchema } from '../signing/sign-options.ts';
import { inspectRequestSchema } from '../http/schemas/pdf-tools.ts';
import { pdfInputFields } from '../http/schemas/pdf-input.ts';
import { renderFields } from '../http/schemas/render.ts';
import { transformRequestSchema } from '../http/schemas/transform.ts';
import { type ApiAnswer, jsonOf, problemOf } from './api-caller.ts';
import { documentUri, jsonResult, pdfResult, problemResult } from './results.ts';
import { CHARGED, callStoring, type ToolArgs, type ToolSpec } from './tool-spec.ts';

const withTopStore = (args: ToolArgs) => ({ ...args, store: true });

const signPdfSchema = z
  .strictObject({ ...pdfInputFields, sign: signOptionsSchema, store: renderFields.store.optional(), filename: renderFields.filename.optional() })
  .describe('The PDF (pdf as base64, or a stored document_id; password for an encrypted one) and the signature to add.');

type Step = { op?: string; output?: string };

/** A split with no output given keeps its parts as stored documents here (a zip is opaque to a model). */
function withPartsStored(args: ToolArgs): ToolArgs {
  if (!Array.isArray(args.steps)) return args;
  return {
    ...args,
    steps: (args.steps as Step[]).map((step) => (step?.op === 'split' && step.output === undefined ? { ...step, output: 'documents' } : step)),
  };
}

const splits = (args: ToolArgs) => Array.isArray(args.steps) && (args.steps as Step[]).some((step) => step?.op === 'split');

/** A transform's answer: the PDF, the parts kept as documents (links), or a zip of parts. */
async function transformResult(answer: ApiAnswer, inlineMaxBytes: number): Promise<CallToolResult> {
  const problem = problemOf(answer);
  if (problem) return problemResult(problem);
  if (answer.status === 201) {
    const json = jsonOf(answer) as { documents: { id: string; filename: string; pages: number; bytes: number }[] };
    return {
      content: [
        { type: 'text', text: JSON.stringify(json) },
        ...json.documents.map((part) => ({
          type: 'resource_link' as const,
          uri: documentUri(part.id),
          name: part.filename,
          mimeType: 'application/pdf',
          size: part.bytes,
          description: `${part.pages} page(s), ${part.bytes} bytes`,
        })),
      ],
      structuredContent: json,
    };
  }
  if (answer.headers.get('content-type')?.startsWith('application/zip'))
    return {
      content: [
        { type: 'text', text: JSON.stringify({ bytes: answer.bytes.byteLength, steps: answer.headers.get('x-pdf-steps') }) },
        { type: 'resource', resource: { uri: 'quire://results/parts.zip', mimeType: 'application/zip', blob: Buffer.from(answer.bytes).toString('base64') } },
      ],
    };
  return pdfResult(answer, inlineMaxBytes);
}

export const pdfTools: ToolSpec[] = [
  {
    name: 'inspect_pdf',
    title: 'Inspect a PDF',
    description:
      'What is inside a PDF (pdf as base64, or a stored document_id): pages, metadata, bookmarks, form fields, attachments, fonts, images, ' +
      'encryption, PDF/A claim, signatures (POST /v1/pdf/inspect). Not charged.',
    input: inspectRequestSchema,
    readOnly: true,
    call: async (args, { api }) => jsonResult(await api('POST', '/v1/pdf/inspect', args)),
  },
  {
    name: 'transform_pdf',
    title: 'Transform a PDF',
    description:
      'Apply steps in order to a PDF (pdf as base64, or a stored document_id): select, delete, reorder, duplicate, insert_blank, rotate, ' +
      'flatten, compress, fill_form, split (POST /v1/pdf/transform). A split keeps its parts as stored documents unless output says "zip", ' +
      'and answers a link to each; other results are stored unless store is false. Charged: one document per call, a split kept as ' +
      'documents one per part (402 quota_exceeded when the allowance is used up); a refused call is not charged.',
    input: transformRequestSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => {
      const body = withPartsStored(args);
      const answer = splits(body)
        ? await api('POST', '/v1/pdf/transform', body)
        : await callStoring(api, '/v1/pdf/transform', body, (b) => b.store, withTopStore);
      return transformResult(answer, inlineMaxBytes);
    },
  },
  {
    name: 'sign_pdf',
    title: 'Sign a PDF',
    description:
      'Sign a PDF (pdf as base64, or a stored document_id) with a PAdES signature, using a certificate imported for this key or granted to ' +
      'it (list_certificates); any other certificate is certificate_not_found (POST /v1/pdf/merge with options.sign). The result is stored ' +
      'unless store is false.' +
      CHARGED,
    input: signPdfSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => {
      const { pdf, document_id, password, sign, store, filename } = args;
      const body = { sources: [{ pdf, document_id, password }], options: { sign }, store, filename };
      return pdfResult(await callStoring(api, '/v1/pdf/merge', body, (b) => b.store, withTopStore), inlineMaxBytes);
    },
  },
  {
    name: 'list_certificates',
    title: 'List signing certificates',
    description: 'The certificates this key may sign with: its own and those granted to it (GET /v1/certificates). Not charged.',
    input: z.strictObject({}),
    readOnly: true,
    call: async (_args, { api }) => jsonResult(await api('GET', '/v1/certificates')),
  },
];
