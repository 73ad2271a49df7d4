// Reads a multipart/form-data body that has already been read whole (raw-body.ts caps its size):
// its file parts and its text fields. busboy parses (a maintained streaming parser; multipart
// boundaries, encodings and quoted names are easy to get subtly wrong by hand).

import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors.ts';

export interface FormFile {
  field: string;
  filename: string;
  bytes: Uint8Array;
}

export interface Form {
  files: FormFile[];
  fields: Map<string, string>;
}

/** Parses the body; a malformed one is 400 invalid_request, a repeated field too. */
export function parseMultipart(headers: IncomingHttpHeaders, body: Uint8Array, limits: { files: number; fields: number }): Promise<Form> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: limits.files, fields: limits.fields, fieldSize: 8 * 1024 * 1024 } });
    } catch (error) {
      return reject(new ApiError('invalid_request', `The multipart body cannot be read: ${(error as Error).message}.`));
    }
    const form: Form = { files: [], fields: new Map() };
    let failure: ApiError | undefined;
    const fail = (detail: string) => {
      failure ??= new ApiError('invalid_request', detail);
    };
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => form.files.push({ field, filename: info.filename ?? '', bytes: new Uint8Array(Buffer.concat(chunks)) }));
    });
    parser.on('field', (name, value) => {
      if (form.fields.has(name)) fail(`The form field ${name} is given twice.`);
      form.fields.set(name, value);
    });
    parser.on('filesLimit', () => fail(`At most ${limits.files} files per call.`));
    parser.on('fieldsLimit', () => fail(`At most ${limits.fields} form fields per call.`));
    parser.on('error', (error: Error) => reject(new ApiError('invalid_request', `The multipart body cannot be read: ${error.message}.`)));
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    parser.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  });
}
