// The app's screens come from location.pathname (one build serves /admin/* and /playground/*);
// links push history entries and the app re-renders on popstate.

import { useEffect, useState } from 'react';

const listeners = new Set<() => void>();

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function usePathname(): string {
  const [pathname, setPathname] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPathname(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
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
  if (path === '/admin/certificates') return { name: 'certificates' };
  return { name: 'not-found' };
}
