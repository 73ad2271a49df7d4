// Draws the placeholder app icons into resources/: icon.png (1024 px, electron-builder derives the
// .icns and .ico from it) and tray.png / tray@2x.png. A page with a folded corner and three lines
// of text on a rounded indigo square. Run with `npx tsx scripts/make-icons.ts`; no image library.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
type Shape = { color: Rgba; inside: (x: number, y: number) => boolean };

const INDIGO: Rgba = [47, 74, 168, 255];
const PAGE: Rgba = [255, 255, 255, 255];
const FOLD: Rgba = [207, 216, 243, 255];
const LINE: Rgba = [143, 160, 221, 255];

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number) {
  return (x: number, y: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}

function polygon(points: [number, number][]) {
  return (x: number, y: number) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i]!;
      const [xj, yj] = points[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
}

const SHAPES: Shape[] = [
  { color: INDIGO, inside: roundedRect(0.06, 0.06, 0.94, 0.94, 0.2) },
  {
    color: PAGE,
    inside: polygon([
      [0.3, 0.2],
      [0.6, 0.2],
      [0.72, 0.32],
      [0.72, 0.8],
      [0.3, 0.8],
    ]),
  },
  {
    color: FOLD,
    inside: polygon([
      [0.6, 0.2],
      [0.6, 0.32],
      [0.72, 0.32],
    ]),
  },
  { color: LINE, inside: roundedRect(0.37, 0.42, 0.65, 0.455, 0.0175) },
  { color: LINE, inside: roundedRect(0.37, 0.52, 0.65, 0.555, 0.0175) },
  { color: LINE, inside: roundedRect(0.37, 0.62, 0.56, 0.655, 0.0175) },
];

/** RGBA pixels, each the average of 4x4 samples so edges are smooth. */
function draw(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          let color: Rgba = [0, 0, 0, 0];
          for (const shape of SHAPES) if (shape.inside(x, y)) color = shape.color;
          // Premultiplied, so transparent samples do not darken the edge.
          for (let c = 0; c < 3; c++) sum[c]! += (color[c]! * color[3]) / 255;
          sum[3]! += color[3];
        }
      }
      const n = samples * samples;
      const alpha = sum[3]! / n;
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[offset + c] = alpha > 0 ? Math.round(((sum[c]! / n) * 255) / alpha) : 0;
      pixels[offset + 3] = Math.round(alpha);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size: number): Buffer {
  const pixels = draw(size);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const resources = path.resolve(import.meta.dirname, '..', 'resources');
for (const [file, size] of [
  ['icon.png', 1024],
  ['tray.png', 22],
  ['tray@2x.png', 44],
] as const) {
  writeFileSync(path.join(resources, file), png(size));
  console.log(`resources/${file} (${size} px)`);
}
