// The app's screens come from location.pathname (one build serves /admin/* and /playground/*);
// links push history entries and the app re-renders on popstate. A screen with unsaved work adds a
// leave guard, asked before any move away: a link, the sidebar, Back (issue 39, item 9).

import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();
/** Each answers whether the screen may be left now (it may ask the person). */
const leaveGuards = new Set<() => boolean>();
/** The address the app shows: where Back returns to when a guard refuses. */
let shown = typeof location === 'undefined' ? '' : location.pathname + location.search;

/** Asked before the app moves to another address; returns the function that removes it. */
export function addLeaveGuard(guard: () => boolean): () => void {
  leaveGuards.add(guard);
  return () => leaveGuards.delete(guard);
}

function mayLeave(): boolean {
  for (const guard of leaveGuards) if (!guard()) return false;
  return true;
}

/** Moves to path; a leave guard may refuse, unless `force` (the screen's own move after it is done, such as after deleting). */
export function navigate(path: string, options: { replace?: boolean; force?: boolean } = {}): void {
  if (path === location.pathname + location.search) return;
  if (!options.force && !mayLeave()) return;
  shown = path;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function usePathname(): string {
  const [pathname, setPathname] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPathname(location.pathname);
    const back = () => {
      // Back or Forward has moved already: a refusing guard puts the address back (one listener does; the others then see no change).
      if (location.pathname + location.search !== shown && !mayLeave()) history.pushState(null, '', shown);
      shown = location.pathname + location.search;
      update();
    };
    listeners.add(update);
    window.addEventListener('popstate', back);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', back);
    };
  }, []);
  return pathname;
}

export type Screen =
  | { name: 'activity' }
  | { name: 'keys' }
  | { name: 'templates' }
  | { name: 'template'; id: string }
  | { name: 'playground' }
  | { name: 'documents' }
  | { name: 'batches' }
  | { name: 'pdf-tools' }
  | { name: 'einvoices' }
  | { name: 'certificates' }
  | { name: 'public-playground' }
  | { name: 'not-found' };

export function screenOf(pathname: string): Screen {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/playground' || path.startsWith('/playground/')) return { name: 'public-playground' };
  // Activity is the first screen after sign-in (docs/operations.md#the-activity-screen).
  if (path === '/admin' || path === '/admin/activity') return { name: 'activity' };
  if (path === '/admin/keys') return { name: 'keys' };
  if (path === '/admin/templates') return { name: 'templates' };
  const template = /^\/admin\/templates\/([^/]+)$/.exec(path);
  if (template) return { name: 'template', id: decodeURIComponent(template[1]!) };
  if (path === '/admin/playground') return { name: 'playground' };
  if (path === '/admin/documents') return { name: 'documents' };
  if (path === '/admin/batches') return { name: 'batches' };
  if (path === '/admin/pdf-tools') return { name: 'pdf-tools' };
  if (path === '/admin/einvoices') return { name: 'einvoices' };
  if (path === '/admin/certificates') return { name: 'certificates' };
  return { name: 'not-found' };
}
