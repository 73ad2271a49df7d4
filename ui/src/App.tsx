// Picks the screen from the path: /playground is public; everything under /admin needs the admin
// token (handed over by the desktop shell, kept in this tab's session, or typed in).

import { useCallback, useEffect, useState } from 'react';
import { onUnauthorized, setAdminToken } from './api/client.ts';
import { findAdminToken, forgetAdminToken, rememberAdminToken } from './lib/admin-token.ts';
import { screenOf, usePathname } from './lib/router.ts';
import { AdminLayout, PublicLayout } from './components/Layout.tsx';
import { Loading } from './components/Page.tsx';
import { TokenPage } from './pages/TokenPage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { ActivityPage } from './pages/ActivityPage.tsx';
import { TemplatesPage } from './pages/TemplatesPage.tsx';
import { TemplateEditorPage } from './pages/TemplateEditorPage.tsx';
import { PlaygroundPage } from './pages/PlaygroundPage.tsx';
import { AdminPlaygroundPage } from './pages/AdminPlaygroundPage.tsx';
import { DocumentsPage } from './pages/DocumentsPage.tsx';
import { BatchesPage } from './pages/BatchesPage.tsx';
import { PdfToolsPage } from './pages/PdfToolsPage.tsx';
import { EInvoicesPage } from './pages/EInvoicesPage.tsx';
import { CertificatesPage } from './pages/CertificatesPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { ScreenBoundary } from './components/ScreenBoundary.tsx';

type Session = { state: 'checking' } | { state: 'signed-out'; reason?: string } | { state: 'signed-in'; fromDesktop: boolean };

export function App() {
  const pathname = usePathname();
  const screen = screenOf(pathname);
  const [session, setSession] = useState<Session>({ state: 'checking' });

  useEffect(() => {
    document.title = screen.name === 'public-playground' ? 'Playground · Quire' : `${TITLES[screen.name] ?? 'Admin'} · Quire`;
  }, [screen.name]);

  useEffect(() => {
    void findAdminToken().then((found) => {
      setAdminToken(found?.token ?? null);
      setSession(found ? { state: 'signed-in', fromDesktop: found.fromDesktop } : { state: 'signed-out' });
    });
    return onUnauthorized(() => {
      forgetAdminToken();
      setAdminToken(null);
      setSession({ state: 'signed-out', reason: 'The server did not accept the admin token. Enter it again.' });
    });
  }, []);

  const signIn = useCallback((token: string) => {
    rememberAdminToken(token);
    setAdminToken(token);
    setSession({ state: 'signed-in', fromDesktop: false });
  }, []);

  const signOut = useCallback(() => {
    forgetAdminToken();
    setAdminToken(null);
    setSession({ state: 'signed-out' });
  }, []);

  if (screen.name === 'public-playground') {
    return (
      <PublicLayout>
        <ScreenBoundary name="Playground">
          <PlaygroundPage />
        </ScreenBoundary>
      </PublicLayout>
    );
  }
  if (session.state === 'checking') return <Loading />;
  if (session.state === 'signed-out') return <TokenPage onSignIn={signIn} reason={session.reason} />;

  return (
    <AdminLayout pathname={pathname} onSignOut={signOut} fromDesktop={session.fromDesktop}>
      <ScreenBoundary key={screen.name} name={TITLES[screen.name] ?? 'This screen'}>
        {screen.name === 'activity' && <ActivityPage />}
        {screen.name === 'keys' && <KeysPage />}
        {screen.name === 'templates' && <TemplatesPage />}
        {screen.name === 'template' && <TemplateEditorPage key={screen.id} id={screen.id} />}
        {screen.name === 'playground' && <AdminPlaygroundPage />}
        {screen.name === 'documents' && <DocumentsPage />}
        {screen.name === 'batches' && <BatchesPage />}
        {screen.name === 'pdf-tools' && <PdfToolsPage />}
        {screen.name === 'einvoices' && <EInvoicesPage />}
        {screen.name === 'certificates' && <CertificatesPage />}
        {screen.name === 'not-found' && <NotFoundPage />}
      </ScreenBoundary>
    </AdminLayout>
  );
}

const TITLES: Record<string, string> = {
  activity: 'Activity',
  keys: 'API keys',
  templates: 'Templates',
  template: 'Template',
  playground: 'Playground',
  documents: 'Documents',
  batches: 'Batches',
  'pdf-tools': 'PDF tools',
  einvoices: 'E-invoices',
  certificates: 'Certificates',
};
