// The sRGB IEC 61966-2.1 colour profile a PDF/A OutputIntent carries, built in code: a version 2
// matrix/TRC display profile (D50-adapted primaries, the sRGB tone curve as a 1024-entry table).
// No npm package ships the profile bytes, and the server must not read Ghostscript's or Debian's
// copies at run time (docs/decisions.md, "PDF/A"); version 2 keeps it valid for PDF/A-1 as well.

const TAG = (text: string) => Buffer.from(text, 'latin1');
const fixed = (value: number) => Math.round(value * 65536);

function xyz(x: number, y: number, z: number): Buffer {
  const out = Buffer.alloc(20);
  TAG('XYZ ').copy(out, 0);
  out.writeInt32BE(fixed(x), 8);
  out.writeInt32BE(fixed(y), 12);
  out.writeInt32BE(fixed(z), 16);
  return out;
}

function description(text: string): Buffer {
  // textDescriptionType (ICC.1:2001-04 6.5.17): ASCII part, empty Unicode and ScriptCode parts.
  const ascii = Buffer.concat([TAG(text), Buffer.alloc(1)]);
  const out = Buffer.alloc(12 + ascii.length + 8 + 3 + 67);
  TAG('desc').copy(out, 0);
  out.writeUInt32BE(ascii.length, 8);
  ascii.copy(out, 12);
  return out;
}

function textTag(text: string): Buffer {
  return Buffer.concat([TAG('text'), Buffer.alloc(4), TAG(text), Buffer.alloc(1)]);
}

function srgbCurve(entries = 1024): Buffer {
  const out = Buffer.alloc(12 + entries * 2);
  TAG('curv').copy(out, 0);
  out.writeUInt32BE(entries, 8);
  for (let i = 0; i < entries; i++) {
    const x = i / (entries - 1);
    const linear = x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    out.writeUInt16BE(Math.round(linear * 65535), 12 + i * 2);
  }
  return out;
}

const pad4 = (buffer: Buffer) => (buffer.length % 4 === 0 ? buffer : Buffer.concat([buffer, Buffer.alloc(4 - (buffer.length % 4))]));

function buildProfile(): Uint8Array {
  const curve = srgbCurve();
  const tags: [string, Buffer][] = [
    ['desc', description('sRGB IEC61966-2.1')],
    ['cprt', textTag('No copyright, use freely')],
    ['wtpt', xyz(0.9642, 1, 0.8249)],
    ['rXYZ', xyz(0.436066, 0.222488, 0.013916)],
    ['gXYZ', xyz(0.385147, 0.716873, 0.097076)],
    ['bXYZ', xyz(0.143066, 0.060608, 0.714096)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ];
  const table = Buffer.alloc(4 + tags.length * 12);
  table.writeUInt32BE(tags.length, 0);
  const bodies: Buffer[] = [];
  const offsets = new Map<Buffer, number>();
  let offset = 128 + table.length;
  for (const [index, [signature, body]] of tags.entries()) {
    // The three tone curves share one body, as the format allows.
    if (!offsets.has(body)) {
      offsets.set(body, offset);
      bodies.push(pad4(body));
      offset += pad4(body).length;
    }
    TAG(signature).copy(table, 4 + index * 12);
    table.writeUInt32BE(offsets.get(body)!, 8 + index * 12);
    table.writeUInt32BE(body.length, 12 + index * 12);
  }
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8); // version 2.1
  TAG('mntr').copy(header, 12);
  TAG('RGB ').copy(header, 16);
  TAG('XYZ ').copy(header, 20);
  for (const [index, part] of [1998, 2, 9, 6, 49, 0].entries()) header.writeUInt16BE(part, 24 + index * 2);
  TAG('acsp').copy(header, 36);
  header.writeInt32BE(fixed(0.9642), 68);
  header.writeInt32BE(fixed(1), 72);
  header.writeInt32BE(fixed(0.8249), 76);
  return new Uint8Array(Buffer.concat([header, table, ...bodies]));
}

let profile: Uint8Array | undefined;

/** The profile's bytes (built once per thread). */
export function srgbProfile(): Uint8Array {
  profile ??= buildProfile();
  return profile;
}

/** What the OutputIntent names the condition. */
export const SRGB_CONDITION = 'sRGB IEC61966-2.1';
