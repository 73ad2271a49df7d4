// The frames around every screen: the admin's left navigation, and the public playground's bar.

import type { ReactNode } from 'react';
import { Link } from './Link.tsx';

const NAV = [
  { href: '/admin/activity', label: 'Activity', match: ['/admin', '/admin/activity'], icon: 'M3 13h4l3-8 4 14 3-6h4v2h-3l-4 8-4-14-2 6H3z' },
  {
    href: '/admin/keys',
    label: 'API keys',
    match: ['/admin/keys'],
    icon: 'M7 14a4 4 0 1 1 3.9-5H21v3h-2v3h-3v-3h-5.1A4 4 0 0 1 7 14zm0-2.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  },
  { href: '/admin/templates', label: 'Templates', match: ['/admin/templates'], icon: 'M4 4h16v4H4zM4 10h7v10H4zM13 10h7v10h-7z' },
  { href: '/admin/playground', label: 'Playground', match: ['/admin/playground'], icon: 'M8 5v14l11-7z' },
  { href: '/admin/documents', label: 'Documents', match: ['/admin/documents'], icon: 'M6 2h8l6 6v14H6zM13 3v6h6' },
  { href: '/admin/pdf-tools', label: 'PDF tools', match: ['/admin/pdf-tools'], icon: 'M6 2h8l6 6v14H6zM9 13h6M9 17h6' },
  { href: '/admin/einvoices', label: 'E-invoices', match: ['/admin/einvoices'], icon: 'M6 2h12v20l-3-2-3 2-3-2-3 2zM9 7h6M9 11h6M9 15h4' },
  {
    href: '/admin/certificates',
    label: 'Certificates',
    match: ['/admin/certificates'],
    icon: 'M4 4h16v12H4zM8 20l2-4h4l2 4-4-2zM8 8h8M8 11h5',
  },
  { href: '/admin/batches', label: 'Batches', match: ['/admin/batches'], icon: 'M4 5h16v3H4zM4 10.5h16v3H4zM4 16h16v3H4z' },
];

export function AdminLayout({
  pathname,
  children,
  onSignOut,
  fromDesktop,
}: {
  pathname: string;
  children: ReactNode;
  onSignOut: () => void;
  fromDesktop: boolean;
}) {
  const current = pathname.replace(/\/+$/, '') || '/admin';
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="sidebar-inner">
          <Brand subtitle="Admin" />
          <ul className="nav-list">
            {NAV.map((item) => {
              const active = item.match.some((prefix) => current === prefix || (prefix !== '/admin' && current.startsWith(`${prefix}/`)));
              return (
                <li key={item.href}>
                  <Link href={item.href} className={active ? 'nav-link active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
                    <svg viewBox="0 0 24 24" aria-hidden="true" className="nav-icon">
                      <path d={item.icon} />
                    </svg>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
          <div className="sidebar-foot">
            <a className="nav-link subtle" href="/docs" target="_blank" rel="noreferrer">
              API reference
            </a>
            {!fromDesktop && (
              <button type="button" className="nav-link subtle as-button" onClick={onSignOut}>
                Sign out
              </button>
            )}
          </div>
        </div>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="public-shell">
      <header className="topbar">
        <Brand subtitle="Playground" />
        <span className="topbar-note">Try a real render: no key needed.</span>
        <a className="button ghost small" href="/docs">
          API reference
        </a>
      </header>
      <main id="main" className="main public" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function Brand({ subtitle }: { subtitle: string }) {
  return (
    <div className="brand">
      <img src="/ui/favicon.svg" alt="" width={28} height={28} />
      <div>
        <div className="brand-name">Quire</div>
        <div className="brand-sub">{subtitle}</div>
      </div>
    </div>
  );
}
