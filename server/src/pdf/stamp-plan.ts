// What the renderer plans for the PDF worker to stamp (stamp.ts, stamp-incremental.ts): the boxes,
// placements and matrices of headers and footers, and where section markers landed. Types only,
// in a module of their own so both stampers and the renderer share them without a circle.

/** Where a header or footer box sits on a body page, in points. */
export interface StampBox {
  /** From the page's left edge. */
  x: number;
  /** From the page's top edge to the box (header), or from the bottom edge to the box (footer). */
  edge: number;
  width: number;
  height: number;
}

export interface StampPlan {
  /** Per body page, the overlay page drawn as its header and as its footer (none when left out). */
  pages: { header?: number; footer?: number }[];
  header?: StampBox;
  footer?: StampBox;
  /** Height of the overlay's pages in points: each instance sits at the top-left of its page. */
  overlayHeight: number;
  /** Per instance, its box in points (placements cut each instance to its own). */
  sizes?: { width: number; height: number }[];
  /**
   * Pages we did not lay out (an office conversion, an uploaded or stored PDF): per page, the
   * matrix that draws each box (its bottom-left corner at the origin) in the page's user space,
   * and the one that moves the page's own content (and annotations) to make room. Given, these
   * replace the header and footer boxes above.
   */
  placements?: (Placement | undefined)[];
  /** Links whose URI starts with this are section markers, removed from the result. */
  markerPrefix?: string;
}

/** A PDF matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

export interface Placement {
  header?: Matrix;
  footer?: Matrix;
  content?: Matrix;
}

/** Page count and, per section marker number, the 0-based page it landed on (-1: not printed). */
export interface MarkerPages {
  pageCount: number;
  markers: number[];
}
