// Copy buttons: the clipboard API where the page is a secure context, else a selected textarea.

import { useState } from 'react';

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied: fall through to the selection copy.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied;
}

export function CopyButton({ text, label = 'Copy', className = 'button small' }: { text: string; label?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className={className}
      onClick={async () => {
        setState((await copyText(text)) ? 'copied' : 'failed');
        setTimeout(() => setState('idle'), 1800);
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}
    </button>
  );
}

/** A secret shown once: readable, selectable, with a copy button. */
export function SecretField({ value, label }: { value: string; label: string }) {
  return (
    <div className="secret-field">
      <label className="field-label" htmlFor="secret-value">
        {label}
      </label>
      <div className="secret-row">
        <input id="secret-value" className="input mono" readOnly value={value} onFocus={(event) => event.currentTarget.select()} data-testid="secret-value" />
        <CopyButton text={value} className="button primary" />
      </div>
    </div>
  );
}
