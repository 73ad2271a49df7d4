// A stored document's first page, small, drawn by the server (GET /admin/v1/documents/{id}/thumbnail)
// once the row scrolls into view; a document that cannot be drawn shows an empty frame.

import { useEffect, useRef, useState } from 'react';
import { fetchThumbnail } from '../api/pdf-tools.ts';

export function DocumentThumbnail({ id, width = 48 }: { id: string; width?: number }) {
  const [url, setUrl] = useState<string | null>(null);
  const frame = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const load = () =>
      fetchThumbnail(id, width * 2, controller.signal)
        .then((blob) => {
          objectUrl = URL.createObjectURL(blob);
          setUrl(objectUrl);
        })
        .catch(() => undefined);
    // Only rows that are seen are drawn: a page of 50 documents costs the server no more than it shows.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        void load();
      }
    });
    if (frame.current) observer.observe(frame.current);
    return () => {
      observer.disconnect();
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id, width]);
  return (
    <span ref={frame} className="doc-thumb" style={{ width }}>
      {url && <img src={url} alt="" width={width} data-thumbnail-of={id} />}
    </span>
  );
}
