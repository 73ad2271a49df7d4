// The admin window's list shapes, written once: a table in its scrolling wrapper with a head row,
// and the filter bar above a list (a key filter, then whatever else the screen filters by).

import type { ReactNode } from 'react';
import type { KeyRecord } from '../api/types.ts';
import { KeySelect } from './KeySelect.tsx';

export interface Column {
  label: ReactNode;
  className?: string;
  /** A longer explanation of a short heading. */
  title?: string;
}

export function Table({ label, columns, className, children }: { label: string; columns: Column[]; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className={className ? `table ${className}` : 'table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, at) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of headings; a heading's position is its identity
              <th key={at} className={column.className} title={column.title}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The heading of a column of row buttons: read by screen readers, not shown. */
export const ACTIONS_COLUMN: Column = { label: <span className="sr-only">Actions</span>, className: 'actions-col' };

/** Filters above a list: every key or one, then the screen's own filters and buttons. */
export function KeyFilterBar({
  id,
  keys,
  value,
  onChange,
  pages,
  children,
}: {
  id: string;
  keys: KeyRecord[] | undefined;
  value: string;
  onChange: (keyId: string) => void;
  /** The list's paging, back to its first page when the filter changes. */
  pages: { reset: () => void };
  children?: ReactNode;
}) {
  return (
    <div className="toolbar">
      <KeySelect
        id={id}
        label="Key"
        keys={keys ?? []}
        value={value}
        allLabel="All keys"
        onChange={(keyId) => {
          onChange(keyId);
          pages.reset();
        }}
      />
      {children}
    </div>
  );
}
