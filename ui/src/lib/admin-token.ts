// Where the admin token comes from: the desktop shell hands it over (window.quire), else this
// tab's session storage, else the person types it. It never goes to localStorage.

const STORAGE_KEY = 'quire.adminToken';

declare global {
  interface Window {
    quire?: { getAdminToken?: () => string | null | undefined | Promise<string | null | undefined> };
  }
}

export async function findAdminToken(): Promise<{ token: string; fromDesktop: boolean } | null> {
  try {
    const handed = await window.quire?.getAdminToken?.();
    if (handed) return { token: handed, fromDesktop: true };
  } catch {
    // The desktop bridge failed: fall back to the session, then the form.
  }
  const stored = sessionStorage.getItem(STORAGE_KEY);
  return stored ? { token: stored, fromDesktop: false } : null;
}

export function rememberAdminToken(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token);
}

export function forgetAdminToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
