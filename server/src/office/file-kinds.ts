// Which office files we take and whether the bytes are what the name says, checked before
// LibreOffice sees them (and before anything is charged): the extension picks the kind, the first
// bytes must match it, and a zip container's directory must not promise more than we will unpack.

import { OfficeConversionError } from './errors.ts';

/** Container formats, told apart by their first bytes. */
type Container = 'zip' | 'cfb' | 'rtf' | 'text';

const KINDS = {
  docx: { label: 'a Word document', containers: ['zip', 'cfb'] },
  doc: { label: 'a Word 97-2003 document', containers: ['cfb'] },
  odt: { label: 'an OpenDocument text', containers: ['zip'] },
  rtf: { label: 'an RTF document', containers: ['rtf'] },
  txt: { label: 'a plain text file', containers: ['text'] },
  xlsx: { label: 'an Excel workbook', containers: ['zip', 'cfb'] },
  xls: { label: 'an Excel 97-2003 workbook', containers: ['cfb'] },
  ods: { label: 'an OpenDocument spreadsheet', containers: ['zip'] },
  csv: { label: 'a CSV file', containers: ['text'] },
  pptx: { label: 'a PowerPoint presentation', containers: ['zip', 'cfb'] },
  ppt: { label: 'a PowerPoint 97-2003 presentation', containers: ['cfb'] },
  odp: { label: 'an OpenDocument presentation', containers: ['zip'] },
} as const satisfies Record<string, { label: string; containers: readonly Container[] }>;
// An encrypted docx/xlsx/pptx is an OLE compound file (cfb) around the encrypted package.

export type OfficeKind = keyof typeof KINDS;
export const OFFICE_KINDS = Object.keys(KINDS) as OfficeKind[];

/** A zip that unpacks to more than this, or holds more entries, is refused as a likely zip bomb. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 20_000;

/** The kind of a file name by its extension, or undefined when we do not convert it. */
export function officeKindOf(filename: string): OfficeKind | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return extension !== undefined && extension in KINDS ? (extension as OfficeKind) : undefined;
}

/** Throws unsupported_file_type for a name we do not convert, conversion_failed when the bytes are not of that kind, too_large for a zip bomb. */
export function checkOfficeFile(filename: string, bytes: Uint8Array): OfficeKind {
  const kind = officeKindOf(filename);
  if (!kind)
    throw new OfficeConversionError(
      'unsupported_file_type',
      `${quoted(filename)} is not a file type we convert: the name must end in one of ${OFFICE_KINDS.map((k) => `.${k}`).join(', ')}`,
    );
  if (bytes.byteLength === 0) throw new OfficeConversionError('conversion_failed', `${quoted(filename)} is empty`);
  const container = containerOf(bytes);
  const { label, containers } = KINDS[kind];
  if (!container || !(containers as readonly Container[]).includes(container))
    throw new OfficeConversionError('conversion_failed', `${quoted(filename)} is not ${label}: its content is ${describeContainer(container)}`);
  if (container === 'zip') checkZipDirectory(filename, bytes);
  return kind;
}

function containerOf(bytes: Uint8Array): Container | undefined {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
  if (head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'cfb';
  if (head.subarray(0, 5).toString('latin1') === '{\\rtf') return 'rtf';
  // Text: UTF-8 or a legacy 8-bit encoding, no NUL bytes (binary formats are full of them).
  const sample = bytes.subarray(0, 64 * 1024);
  if (!sample.includes(0)) return 'text';
  return undefined;
}

function describeContainer(container: Container | undefined): string {
  if (container === 'zip') return 'a zip archive of another kind';
  if (container === 'cfb') return 'an OLE compound file (a legacy Office format or an encrypted Office file)';
  if (container === 'rtf') return 'RTF';
  if (container === 'text') return 'plain text';
  return 'binary data of another format';
}

/**
 * Reads the zip's central directory (never unpacking anything): the sum of the sizes its entries
 * unpack to, and their number, must stay under the caps. A directory that cannot be read is a
 * damaged file.
 */
function checkZipDirectory(filename: string, bytes: Uint8Array): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = () => new OfficeConversionError('conversion_failed', `${quoted(filename)} is damaged: its zip directory cannot be read`);
  // The end-of-central-directory record sits in the last 22 + up to 65535 (comment) bytes.
  const from = Math.max(0, buffer.byteLength - 22 - 0xffff);
  let end = -1;
  for (let at = buffer.byteLength - 22; at >= from; at--) {
    if (buffer.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged();
  const entries = buffer.readUInt16LE(end + 10);
  const offset = buffer.readUInt32LE(end + 16);
  if (entries === 0xffff || offset === 0xffffffff || entries > MAX_ZIP_ENTRIES) throw bomb(filename);
  let at = offset;
  let unpacked = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > buffer.byteLength || buffer.readUInt32LE(at) !== 0x02014b50) throw damaged();
    const size = buffer.readUInt32LE(at + 24);
    // 0xffffffff: the real size is in a zip64 field; no office file needs entries of 4 GB.
    if (size === 0xffffffff) throw bomb(filename);
    unpacked += size;
    if (unpacked > MAX_UNPACKED_BYTES) throw bomb(filename);
    at += 46 + buffer.readUInt16LE(at + 28) + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
  }
}

function bomb(filename: string): OfficeConversionError {
  return new OfficeConversionError(
    'too_large',
    `${quoted(filename)} unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB (or too many parts); it is refused as a likely zip bomb`,
  );
}

function quoted(filename: string): string {
  return JSON.stringify(filename.length > 120 ? `${filename.slice(0, 117)}...` : filename);
}
