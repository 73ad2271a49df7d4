// A modal on the native <dialog>: it makes the page inert, keeps Tab and Shift+Tab inside (they
// wrap), closes on Escape and gives the focus back to what opened it.

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { wrapTab } from './focus-trap.ts';

export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // What had the focus when the dialog opened: it gets it back when the dialog closes.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // The native dialog focuses its first control (the close button); start where the work is.
      const target = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('.dialog-content :is(input, select, textarea)');
      target?.focus();
    }
    if (!open && dialog.open) dialog.close();
    if (!open && opener.current) {
      if (opener.current.isConnected) opener.current.focus();
      opener.current = null;
    }
  }, [open]);
  return (
    // A click on the backdrop is the mouse's Escape; the keyboard has Escape (onCancel) and the close button.
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        // Escape is handled here, not left to the native cancel: Chromium's close-watcher rules skip
        // the cancel event for a page's later dialogs opened without a fresh activation, and one stayed open.
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
        wrapTab(event, ref.current);
      }}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      {open && (
        <div className="dialog-body">
          <PanelHead className="dialog-head" titleId={titleId} title={title} onClose={onClose} />
          <div className="dialog-content">{children}</div>
          {footer && <div className="dialog-foot">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={onConfirm} disabled={busy} data-autofocus>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      <p>{children}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

/** A dialog whose body is one form: its fields, then the action's error, Cancel and the submit button. */
export function FormDialog({
  open,
  title,
  wide,
  onClose,
  onSubmit,
  error,
  busy,
  ready = true,
  submitLabel,
  busyLabel,
  children,
}: {
  open: boolean;
  title: string;
  wide?: boolean;
  onClose: () => void;
  /** Called on submit (Enter or the button), the browser's own submit already prevented. */
  onSubmit: () => void;
  error: string | undefined;
  busy: boolean;
  /** False while the form lacks what it needs: the button stays disabled. */
  ready?: boolean;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} title={title} onClose={onClose} wide={wide}>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-foot inline">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy || !ready}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The title row of a dialog or side panel: its heading (what aria-labelledby names) and the × button. */
export function PanelHead({ className, titleId, title, onClose }: { className: string; titleId: string; title: string; onClose: () => void }) {
  return (
    <div className={className}>
      <h2 id={titleId}>{title}</h2>
      <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
