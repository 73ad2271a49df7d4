// A stored document's first page, small, drawn by the server (GET /admin/v1/documents/{id}/thumbnail)
// once the row scrolls into view. A busy server is asked again by the API client; one that still
// fails leaves a "Retry" in the frame instead of an empty frame until a reload (issue 39, item 8).

import { useEffect, useRef, useState } from 'react';
import { fetchThumbnail } from '../api/pdf-tools.ts';
import { describeFailure } from '../api/client.ts';

export function DocumentThumbnail({ id, width = 48 }: { id: string; width?: number }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Bumped by Retry: runs the effect again. */
  const [attempt, setAttempt] = useState(0);
  const frame = useRef<HTMLSpanElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the Retry button's way to draw again
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const load = () =>
      fetchThumbnail(id, width * 2, controller.signal)
        .then((blob) => {
          objectUrl = URL.createObjectURL(blob);
          setUrl(objectUrl);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setFailure(describeFailure(error));
        });
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
  }, [id, width, attempt]);
  const retry = () => {
    setFailure(null);
    setAttempt((count) => count + 1);
  };
  return (
    <span ref={frame} className="doc-thumb" style={{ width }}>
      {url && <img src={url} alt="" width={width} data-thumbnail-of={id} />}
      {failure && (
        <button type="button" className="doc-thumb-retry" title={`No thumbnail: ${failure}`} aria-label="Retry the thumbnail" onClick={retry}>
          Retry
        </button>
      )}
    </span>
  );
}
