// The admin window's playground: renders (HTML, a URL, ...) as on the public page, and an "Office
// file" tab that converts with LibreOffice (admin only: office files are not on the public page).

import { useState } from 'react';
import { PlaygroundPage } from './PlaygroundPage.tsx';
import { OfficePlayground } from './OfficePlayground.tsx';

type Tab = 'render' | 'office';

export function AdminPlaygroundPage() {
  const [tab, setTab] = useState<Tab>('render');
  return (
    <>
      <div className="segmented playground-tabs" role="tablist" aria-label="Playground">
        {(['render', 'office'] as const).map((item) => (
          <label key={item} className={tab === item ? 'segment active' : 'segment'}>
            <input type="radio" name="playground-tab" value={item} checked={tab === item} onChange={() => setTab(item)} />
            {item === 'render' ? 'Web page' : 'Office file'}
          </label>
        ))}
      </div>
      {tab === 'render' ? <PlaygroundPage embedded /> : <OfficePlayground />}
    </>
  );
}
