// A panel over the right edge of the screen, beside what opened it (a receipt next to the Activity
// table): not modal, so the table stays usable and another row's receipt replaces this one. It
// takes the focus when it opens, closes with its button or Escape, and gives the focus back.

import { useEffect, useRef, type ReactNode } from 'react';
import { PanelHead } from './Dialog.tsx';

export function SidePanel({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A native dialog opened on top handles its own Escape.
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('dialog[open]')) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside ref={ref} className="side-panel" role="dialog" aria-modal="false" aria-labelledby="side-panel-title" tabIndex={-1}>
      <PanelHead className="side-panel-head" titleId="side-panel-title" title={title} onClose={onClose} />
      <div className="side-panel-body">{children}</div>
    </aside>
  );
}
