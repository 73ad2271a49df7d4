// Cursor paging: the server's next_cursor moves forward; the cursors seen so far move back.

export function Pager({
  page,
  hasNext,
  onPrevious,
  onNext,
  count,
  pageSize,
  busy,
}: {
  page: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  count: number;
  pageSize: number;
  busy?: boolean;
}) {
  if (page === 0 && !hasNext) return null;
  const first = page * pageSize + 1;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted">{count > 0 ? `${first}–${first + count - 1}` : 'No items'}</span>
      <div className="pager-buttons">
        <button type="button" className="button ghost small" onClick={onPrevious} disabled={page === 0 || busy}>
          ← Newer
        </button>
        <button type="button" className="button ghost small" onClick={onNext} disabled={!hasNext || busy}>
          Older →
        </button>
      </div>
    </nav>
  );
}
