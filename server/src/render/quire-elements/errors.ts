// The errors of Quire's own elements. A drawer throws ElementAttributeError naming the attribute it
// refuses; the expander adds which element and where, as ElementInvalidError, which
// wire/error-mapping.ts answers as 400 element_invalid (docs/api.md#barcodes-and-charts).

/** Thrown by an element's drawer: the attribute (or "content") it refuses, and why, as a sentence ("must be digits only"). */
export class ElementAttributeError extends Error {
  constructor(
    readonly attribute: string,
    readonly reason: string,
  ) {
    super(`${attribute}: ${reason}`);
    this.name = 'ElementAttributeError';
  }
}

/** An element of the document that cannot be drawn: which one, on which line, which attribute, why. */
export class ElementInvalidError extends Error {
  constructor(
    readonly element: string,
    readonly line: number,
    readonly attribute: string,
    readonly reason: string,
  ) {
    const part = attribute === '' ? '' : attribute === 'content' ? ', its content' : `, attribute ${attribute}`;
    super(`<${element}> on line ${line} of the document${part}: ${reason}.`);
    this.name = 'ElementInvalidError';
  }
}

/** The document with its drawings so far is already longer than the ceiling for what is rendered. */
export class DrawingsTooLargeError extends Error {
  constructor(readonly maxLength: number) {
    super(`The document with its barcodes and charts drawn is larger than the ${Math.round(maxLength / 1024 / 1024)} MB limit for what is rendered.`);
    this.name = 'DrawingsTooLargeError';
  }
}
