// The url-only options as a form: extra headers, cookies, basic auth and the user agent, all
// sent only to the url's own origin. Headers and cookies are typed one a line.

import { useState } from 'react';
import type { PdfOptions } from '../api/types.ts';
import { Field, TextField } from './Fields.tsx';

export function UrlOptionsForm({ value, onChange }: { value: PdfOptions; onChange: (next: PdfOptions) => void }) {
  const auth = value.basic_auth ?? { username: '', password: '' };
  // duplicates: the two LinesField calls differ in how their lines become the request (headers, cookies).
  return (
    <div className="options-grid">
      <p className="hint wide">Sent only to the URL’s own origin: never to other sites the page loads, nor after a redirect elsewhere.</p>
      <LinesField
        label="HTTP headers"
        id="opt-url-headers"
        hint="Name: value, one a line (at most 20)"
        initial={Object.entries(value.http_headers ?? {}).map(([name, field]) => `${name}: ${field}`)}
        onChange={(text) => onChange({ ...value, http_headers: parseLines(text, ':') })}
      />
      <LinesField
        label="Cookies"
        id="opt-url-cookies"
        hint="name=value, one a line"
        initial={(value.cookies ?? []).map((cookie) => `${cookie.name}=${cookie.value}`)}
        onChange={(text) => {
          const cookies = Object.entries(parseLines(text, '=') ?? {}).map(([name, field]) => ({ name, value: field }));
          onChange({ ...value, cookies: cookies.length > 0 ? cookies : undefined });
        }}
      />
      <TextField
        label="Basic auth user"
        id="opt-url-user"
        autoComplete="off"
        value={auth.username}
        onChange={(username) => onChange({ ...value, basic_auth: { ...auth, username } })}
      />
      <TextField
        label="Basic auth password"
        id="opt-url-password"
        type="password"
        autoComplete="new-password"
        value={auth.password}
        onChange={(password) => onChange({ ...value, basic_auth: { ...auth, password } })}
      />
      <TextField
        label="User agent"
        id="opt-url-ua"
        value={value.user_agent ?? ''}
        placeholder="Chromium’s own"
        onChange={(user_agent) => onChange({ ...value, user_agent })}
      />
    </div>
  );
}

// duplicates: not TextField (Fields.tsx): a textarea that keeps its own text, half-typed lines included.
/** A textarea of lines kept as typed (half-typed lines included); the form reads its parsed value. */
function LinesField({ label, id, hint, initial, onChange }: { label: string; id: string; hint: string; initial: string[]; onChange: (text: string) => void }) {
  const [text, setText] = useState(() => initial.join('\n'));
  return (
    <Field label={label} id={id} hint={hint}>
      <textarea
        id={id}
        className="code-input"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onChange(event.target.value);
        }}
      />
    </Field>
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
