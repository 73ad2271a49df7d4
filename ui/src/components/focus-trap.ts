// Keeps the keyboard inside an open modal: Tab from its last control goes to its first, Shift+Tab
// from its first to its last. The native <dialog> makes the page inert but lets Tab leave for the
// browser's own controls; a person using the keyboard should stay in the dialog until it closes.

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The controls Tab can reach inside `container`, in document order (hidden ones left out). */
export function tabbable(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0 && !element.closest('[inert]'));
}

/** A keydown handler's Tab case: wraps the focus at either end of `container`. */
export function wrapTab(event: { key: string; shiftKey: boolean; preventDefault: () => void }, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return;
  const controls = tabbable(container);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !(active instanceof Node && container.contains(active));
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
