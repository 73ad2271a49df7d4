// Office files are checked before LibreOffice sees them: the extension picks the kind, the first
// bytes must match it, and a zip's directory must not promise more than the cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOfficeFile, officeKindOf } from '../../../server/src/office/file-kinds.ts';
import { OfficeConversionError } from '../../../server/src/office/errors.ts';
import { docx, odt, rtf, xlsx } from '../../helpers/office-fixtures.ts';

function refusal(filename: string, bytes: Uint8Array): OfficeConversionError {
  try {
    checkOfficeFile(filename, bytes);
  } catch (error) {
    assert.ok(error instanceof OfficeConversionError);
    return error;
  }
  assert.fail(`${filename} was accepted`);
}

test('the kind comes from the extension, in any case', () => {
  assert.equal(officeKindOf('Report.DOCX'), 'docx');
  assert.equal(officeKindOf('a.b.csv'), 'csv');
  assert.equal(officeKindOf('report.pdf'), undefined);
  assert.equal(officeKindOf('docx'), undefined);
});

test('files whose bytes are of their kind pass', () => {
  assert.equal(checkOfficeFile('a.docx', docx([['x']])), 'docx');
  assert.equal(checkOfficeFile('a.xlsx', xlsx([['x']])), 'xlsx');
  assert.equal(checkOfficeFile('a.odt', odt(['x'])), 'odt');
  assert.equal(checkOfficeFile('a.rtf', rtf(['x'])), 'rtf');
  assert.equal(checkOfficeFile('a.csv', Buffer.from('a,b\n1,2\n')), 'csv');
  // An encrypted docx is an OLE compound file around the encrypted package.
  assert.equal(checkOfficeFile('locked.docx', Buffer.from('d0cf11e0a1b11ae1000000', 'hex')), 'docx');
});

test('a name we do not convert, bytes of another kind, an empty file and a damaged zip are refused by name', () => {
  assert.equal(refusal('notes.pages', docx([['x']])).code, 'unsupported_file_type');
  const png = refusal('photo.docx', Buffer.from('89504e470d0a1a0a0000', 'hex'));
  assert.equal(png.code, 'conversion_failed');
  assert.match(png.message, /"photo\.docx" is not a Word document/);
  assert.match(refusal('text.xls', Buffer.from('plain words')).message, /not an Excel 97-2003 workbook: its content is plain text/);
  assert.match(refusal('empty.odt', new Uint8Array()).message, /is empty/);
  assert.match(refusal('cut.docx', docx([['x']]).subarray(0, 120)).message, /damaged/);
});

test('a zip whose directory promises more than 256 MB is refused as a likely zip bomb', () => {
  const bytes = Buffer.from(docx([['bomb']]));
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = bytes.indexOf(signature); at >= 0; at = bytes.indexOf(signature, at + 4)) bytes.writeUInt32LE(100 * 1024 * 1024, at + 24);
  const error = refusal('bomb.docx', bytes);
  assert.equal(error.code, 'too_large');
  assert.match(error.message, /zip bomb/);
});
