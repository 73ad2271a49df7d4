// Content-Disposition with a filename: a quoted ASCII fallback plus RFC 5987 filename* for the rest.

export function contentDisposition(name: string, type: 'inline' | 'attachment' = 'inline'): string {
  // Requests refuse lone surrogates (isWellFormedText); a name stored before that check still
  // gets a header, with U+FFFD in their place, rather than a URIError from encodeURIComponent.
  const filename = name.replace(LONE_SURROGATE, '\uFFFD');
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const LONE_SURROGATE = /\p{Cs}/gu;

/** Whether text is well-formed Unicode (no lone surrogate), so it can become a header or a file name. */
export function isWellFormedText(text: string): boolean {
  return !/\p{Cs}/u.test(text);
}
