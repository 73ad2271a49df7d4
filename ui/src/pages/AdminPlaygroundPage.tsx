// The admin window's playground: renders (HTML, a URL, ...) as on the public page, and an "Office
// file" tab that converts with LibreOffice (admin only: office files are not on the public page).
// The tab is in the address (/admin/playground?tab=office), so a reload or a link keeps it.

import { useState } from 'react';
import { PlaygroundPage } from './PlaygroundPage.tsx';
import { OfficePlayground } from './OfficePlayground.tsx';
import { Segmented } from '../components/Segmented.tsx';

type Tab = 'render' | 'office';

const tabInAddress = (): Tab => (new URLSearchParams(location.search).get('tab') === 'office' ? 'office' : 'render');

export function AdminPlaygroundPage() {
  const [tab, setTab] = useState<Tab>(tabInAddress);
  const choose = (next: Tab) => {
    setTab(next);
    // Replaced, not pushed: switching tabs is not a step Back should undo one by one.
    const query = new URLSearchParams(location.search);
    if (next === 'office') query.set('tab', 'office');
    else query.delete('tab');
    const search = query.toString();
    history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
  };
  return (
    <>
      <Segmented
        name="playground-tab"
        label="Playground"
        className="playground-tabs"
        value={tab}
        choices={['render', 'office'] as const}
        labels={{ render: 'Web page', office: 'Office file' }}
        onChange={choose}
      />
      {tab === 'render' ? <PlaygroundPage embedded /> : <OfficePlayground />}
    </>
  );
}
