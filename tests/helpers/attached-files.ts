// Reads a PDF's attachments with tools independent of the code that wrote them: pdfdetach
// (poppler) for the list and the bytes, qpdf --json for /AF, /AFRelationship and /Params,
// exiftool for the XMP properties.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Json = Record<string, unknown>;

export interface AttachedFile {
  name: string;
  bytes: Buffer;
}

/** pdfdetach -list, then -savefile for each: the names and the bytes poppler extracts. */
export function detach(pdf: Uint8Array): AttachedFile[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-detach-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const listing = execFileSync('pdfdetach', ['-list', '-enc', 'UTF-8', file], { encoding: 'utf8' });
    const names = listing
      .split('\n')
      .map((line) => /^\d+: (.*)$/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    return names.map((name, index) => {
      const out = path.join(dir, `out-${index}`);
      execFileSync('pdfdetach', ['-save', String(index + 1), '-o', out, file]);
      return { name, bytes: readFileSync(out) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The object table of qpdf --json (version 2): "obj:N 0 R" -> {value} or {stream: {dict}}, plus "trailer". */
export function qpdfObjects(pdf: Uint8Array): Record<string, Json> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-qpdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as {
      qpdf: [Json, Record<string, Json>];
    };
    return json.qpdf[1];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An object's dictionary (a stream's dict or a plain value). */
export function dictOf(objects: Record<string, Json>, ref: unknown): Json {
  const entry = objects[`obj:${String(ref)}`];
  if (!entry) throw new Error(`no object ${String(ref)}`);
  return ((entry.stream as Json | undefined)?.dict ?? entry.value) as Json;
}

/** The catalog's dictionary. */
export function catalogOf(objects: Record<string, Json>): Json {
  const trailer = (objects.trailer as Json).value as Json;
  return dictOf(objects, trailer['/Root']);
}

/** The file specifications the catalog's /AF array lists, with their embedded stream's dict. */
export function associatedFiles(pdf: Uint8Array): { spec: Json; stream: Json }[] {
  const objects = qpdfObjects(pdf);
  const af = (catalogOf(objects)['/AF'] ?? []) as string[];
  return af.map((ref) => {
    const spec = dictOf(objects, ref);
    const stream = dictOf(objects, (spec['/EF'] as Json)['/F']);
    return { spec, stream };
  });
}

/** The XMP properties exiftool reads (-XMP:all, as "Group:Name" keys). */
export function xmpProperties(pdf: Uint8Array): Record<string, unknown> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-exif-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-G1', '-XMP:all', file], { encoding: 'utf8' })) as [Record<string, unknown>];
    return tags;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The XMP packet as poppler's pdfinfo -meta prints it. */
export function xmpPacket(pdf: Uint8Array): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-meta-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
