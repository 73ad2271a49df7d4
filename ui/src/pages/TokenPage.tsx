// Asks for the admin token and checks it against the server before keeping it for this tab.

import { useState, type FormEvent } from 'react';
import { ApiFailure, call, describeFailure } from '../api/client.ts';

export function TokenPage({ onSignIn, reason }: { onSignIn: (token: string) => void; reason?: string }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(reason);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setError('Enter the admin token.');
    setBusy(true);
    setError(undefined);
    try {
      await call('GET', '/admin/v1/plans', { bearer: value });
      onSignIn(value);
    } catch (failure) {
      setError(failure instanceof ApiFailure && failure.status === 401 ? 'That is not the admin token of this server.' : describeFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="signin">
      <form className="card signin-card" onSubmit={submit}>
        <div className="brand">
          <img src="/ui/favicon.svg" alt="" width={32} height={32} />
          <div>
            <div className="brand-name">Quire</div>
            <div className="brand-sub">Admin</div>
          </div>
        </div>
        <h1>Sign in with the admin token</h1>
        <p className="muted">
          The server printed it on first start and keeps it in <code>DATA_DIR/admin-token</code> (or it is the <code>ADMIN_TOKEN</code> you set). It is kept
          only in this tab.
        </p>
        <label className="field-label" htmlFor="admin-token">
          Admin token
        </label>
        <input
          id="admin-token"
          className="input mono"
          type="password"
          autoComplete="current-password"
          // biome-ignore lint/a11y/noAutofocus: the token is the only thing this page asks for; the field is where every visit starts
          autoFocus
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button className="button primary wide" type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <p className="muted small">
          Just trying things out? The <a href="/playground">playground</a> needs no token.
        </p>
      </form>
    </div>
  );
}
