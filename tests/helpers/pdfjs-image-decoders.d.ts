// pdfjs-dist ships its image decoders without type declarations: the part tests/helpers/image.ts uses.
declare module 'pdfjs-dist/legacy/image_decoders/pdf.image_decoders.mjs' {
  export class JpegImage {
    width: number;
    height: number;
    parse(data: Uint8Array): void;
    getData(options: { width: number; height: number; forceRGB?: boolean }): Uint8ClampedArray;
  }
}
