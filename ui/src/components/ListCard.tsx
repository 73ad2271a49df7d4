// A list screen's card, written once: a spinner until the first answer, the screen's empty state
// when there is nothing to list, else its table and, for a paged list, the pager under it.

import type { ReactNode } from 'react';
import type { CursorPages } from '../lib/hooks.ts';
import { Card, Loading } from './Page.tsx';
import { Pager } from './Pager.tsx';

export function ListCard({
  list,
  rows,
  loadingLabel,
  empty,
  paging,
  children,
}: {
  list: { loading: boolean; error?: string; data?: unknown };
  /** The rows shown; undefined until the first answer. */
  rows: readonly unknown[] | undefined;
  loadingLabel: string;
  /** The EmptyState shown for an empty first page (not while a failed load is reported above). */
  empty: ReactNode;
  paging?: { pages: CursorPages; pageSize: number; nextCursor: string | null | undefined };
  /** The table of the rows. */
  children: ReactNode;
}) {
  const firstPage = (paging?.pages.page ?? 0) === 0;
  return (
    <Card>
      {list.loading && !list.data ? (
        <Loading label={loadingLabel} />
      ) : rows && rows.length === 0 && firstPage && !list.error ? (
        empty
      ) : (
        rows && (
          <>
            {children}
            {paging && (
              <Pager
                page={paging.pages.page}
                pageSize={paging.pageSize}
                count={rows.length}
                hasNext={Boolean(paging.nextCursor)}
                busy={list.loading}
                onPrevious={paging.pages.previous}
                onNext={() => paging.pages.next(paging.nextCursor)}
              />
            )}
          </>
        )
      )}
    </Card>
  );
}
