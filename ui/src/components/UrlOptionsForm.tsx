// The url-only options as a form: extra headers, cookies, basic auth and the user agent, all
// sent only to the url's own origin. Headers and cookies are typed one a line.

import { useState } from 'react';
import type { PdfOptions } from '../api/types.ts';
import { Field } from './OptionsForm.tsx';

export function UrlOptionsForm({ value, onChange }: { value: PdfOptions; onChange: (next: PdfOptions) => void }) {
  const [headerText, setHeaderText] = useState(() =>
    Object.entries(value.http_headers ?? {})
      .map(([name, field]) => `${name}: ${field}`)
      .join('\n'),
  );
  const [cookieText, setCookieText] = useState(() => (value.cookies ?? []).map((cookie) => `${cookie.name}=${cookie.value}`).join('\n'));
  const auth = value.basic_auth ?? { username: '', password: '' };
  return (
    <div className="options-grid">
      <p className="hint wide">Sent only to the URL’s own origin: never to other sites the page loads, nor after a redirect elsewhere.</p>
      <Field label="HTTP headers" id="opt-url-headers" hint="Name: value, one a line (at most 20)">
        <textarea
          id="opt-url-headers"
          className="code-input"
          spellCheck={false}
          value={headerText}
          onChange={(event) => {
            setHeaderText(event.target.value);
            onChange({ ...value, http_headers: parseLines(event.target.value, ':') });
          }}
        />
      </Field>
      <Field label="Cookies" id="opt-url-cookies" hint="name=value, one a line">
        <textarea
          id="opt-url-cookies"
          className="code-input"
          spellCheck={false}
          value={cookieText}
          onChange={(event) => {
            setCookieText(event.target.value);
            const cookies = Object.entries(parseLines(event.target.value, '=') ?? {}).map(([name, field]) => ({ name, value: field }));
            onChange({ ...value, cookies: cookies.length > 0 ? cookies : undefined });
          }}
        />
      </Field>
      <Field label="Basic auth user" id="opt-url-user">
        <input
          id="opt-url-user"
          className="input"
          autoComplete="off"
          value={auth.username}
          onChange={(event) => onChange({ ...value, basic_auth: { ...auth, username: event.target.value } })}
        />
      </Field>
      <Field label="Basic auth password" id="opt-url-password">
        <input
          id="opt-url-password"
          className="input"
          type="password"
          autoComplete="new-password"
          value={auth.password}
          onChange={(event) => onChange({ ...value, basic_auth: { ...auth, password: event.target.value } })}
        />
      </Field>
      <Field label="User agent" id="opt-url-ua">
        <input
          id="opt-url-ua"
          className="input"
          value={value.user_agent ?? ''}
          placeholder="Chromium’s own"
          onChange={(event) => onChange({ ...value, user_agent: event.target.value })}
        />
      </Field>
    </div>
  );
}

/** "a: b" (or "a=b") lines as a record; lines without the separator are skipped. */
function parseLines(text: string, separator: string): Record<string, string> | undefined {
  const entries = text
    .split('\n')
    .map((line) => [line.slice(0, line.indexOf(separator)).trim(), line.slice(line.indexOf(separator) + 1).trim()] as const)
    .filter(([name], index) => name !== '' && text.split('\n')[index]!.includes(separator));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
