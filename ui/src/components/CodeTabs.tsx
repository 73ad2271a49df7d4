// Code samples in tabs (curl, JavaScript), each with a copy button.

import { useId, useState } from 'react';
import { CopyButton } from './Copy.tsx';

export function CodeTabs({ samples, label }: { samples: { name: string; code: string }[]; label: string }) {
  const [active, setActive] = useState(0);
  const panelId = useId();
  const current = samples[active] ?? samples[0];
  if (!current) return null;
  return (
    <div className="code-tabs">
      <div className="code-tabs-head">
        <div role="tablist" aria-label={label}>
          {samples.map((sample, index) => (
            <button
              key={sample.name}
              type="button"
              role="tab"
              aria-selected={index === active}
              aria-controls={panelId}
              className={index === active ? 'tab active' : 'tab'}
              onClick={() => setActive(index)}
            >
              {sample.name}
            </button>
          ))}
        </div>
        <CopyButton text={current.code} className="button ghost small" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tabs pattern's panel takes focus when it holds no control, so the keyboard can scroll the code */}
      <pre id={panelId} className="code" role="tabpanel" tabIndex={0} aria-label={`${label}: ${current.name}`}>
        <code>{current.code}</code>
      </pre>
    </div>
  );
}
