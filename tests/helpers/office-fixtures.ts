// Office files written by the tests themselves (nothing downloaded): the smallest valid Word,
// Excel, OpenDocument text/spreadsheet/presentation and RTF files, with room for the parts the
// safety tests need (links to other files and addresses, macros). fflate zips them.

import { zipSync, strToU8 } from 'fflate';

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A docx whose pages hold the given paragraphs (a page break between pages); `body` adds raw WordprocessingML; `rels` extra relationships. */
export function docx(pages: string[][], extra: { body?: string; rels?: string } = {}): Uint8Array {
  const paragraphs = pages
    .map((page, index) =>
      page
        .map(
          (text, line) =>
            `<w:p>${index > 0 && line === 0 ? '<w:r><w:br w:type="page"/></w:r>' : ''}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`,
        )
        .join(''),
    )
    .join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
<w:body>${paragraphs}${extra.body ?? ''}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
    '_rels/.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/_rels/document.xml.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${extra.rels ?? ''}</Relationships>`),
    'word/document.xml': strToU8(document),
  });
}

/** WordprocessingML for a picture whose bytes are linked (not embedded) through relationship `rid`. */
export function linkedPicture(rid: string, id: number): string {
  return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="${id}" name="Linked ${id}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${id}" name="linked${id}.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
}

/** A relationship to an external target (an image link, a linked file). */
export function externalRel(rid: string, target: string, type = 'image'): string {
  return `<Relationship Id="${rid}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${esc(target)}" TargetMode="External"/>`;
}

/** An xlsx of one sheet with the rows given (strings inline, numbers as numbers). */
export function xlsx(rows: (string | number)[][]): Uint8Array {
  const column = (index: number) => String.fromCharCode(65 + index);
  const sheetRows = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((cell, c) =>
            typeof cell === 'number'
              ? `<c r="${column(c)}${r + 1}"><v>${cell}</v></c>`
              : `<c r="${column(c)}${r + 1}" t="inlineStr"><is><t>${esc(cell)}</t></is></c>`,
          )
          .join('')}</row>`,
    )
    .join('');
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return zipSync({
    '[Content_Types].xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`),
    '_rels/.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${S}" xmlns:r="${R}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    'xl/worksheets/sheet1.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="${S}"><sheetData>${sheetRows}</sheetData></worksheet>`),
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" ' +
  'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:dom="http://www.w3.org/2001/xml-events" xmlns:ooo="http://openoffice.org/2004/office" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';

type OdfKind = 'text' | 'spreadsheet' | 'presentation';

/** An OpenDocument file: `body` is what goes inside office:body/office:<kind>; `head` goes before office:body; `files` are more entries. */
export function odf(kind: OdfKind, body: string, extra: { head?: string; files?: Record<string, string> } = {}): Uint8Array {
  const mime = `application/vnd.oasis.opendocument.${kind}`;
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content ${ODF_NS} office:version="1.3">${extra.head ?? ''}<office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`;
  const files = extra.files ?? {};
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>${Object.keys(
    files,
  )
    .map((name) => `<manifest:file-entry manifest:full-path="${name}" manifest:media-type="text/xml"/>`)
    .join('')}</manifest:manifest>`;
  return zipSync({
    // The mimetype entry comes first, stored: how ODF readers recognise the file.
    mimetype: [strToU8(mime), { level: 0 }],
    'content.xml': strToU8(content),
    'META-INF/manifest.xml': strToU8(manifest),
    ...Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])),
  });
}

/** An odt of paragraphs. */
export function odt(paragraphs: string[], more = ''): Uint8Array {
  return odf('text', paragraphs.map((text) => `<text:p>${esc(text)}</text:p>`).join('') + more);
}

/** An odp with one slide per title. */
export function odp(titles: string[]): Uint8Array {
  const slides = titles
    .map(
      (title, index) =>
        `<draw:page draw:name="Slide ${index + 1}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${esc(title)}</text:p></draw:text-box></draw:frame></draw:page>`,
    )
    .join('');
  return odf('presentation', slides);
}

/** An RTF document of paragraphs. */
export function rtf(paragraphs: string[]): Uint8Array {
  return strToU8(
    `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Liberation Serif;}}\\f0\\fs24 ${paragraphs.map((text) => text.replace(/[\\{}]/g, (c) => `\\${c}`)).join('\\par ')}\\par}`,
  );
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** An odt with one chapter a page: a level-1 heading (LibreOffice bookmarks it) and a paragraph under it. */
export function chapters(titles: string[]): Uint8Array {
  const body = titles
    .map(
      (title, index) =>
        `<text:h text:outline-level="1"${index > 0 ? ' text:style-name="NewPage"' : ''}>${esc(title)}</text:h><text:p>Text of ${esc(title)}</text:p>`,
    )
    .join('');
  const styles =
    '<office:automatic-styles><style:style style:name="NewPage" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles>';
  return odf('text', body, { head: styles });
}
