// The admin window's playground: renders (HTML, a URL, ...) as on the public page, and an "Office
// file" tab that converts with LibreOffice (admin only: office files are not on the public page).

import { useState } from 'react';
import { PlaygroundPage } from './PlaygroundPage.tsx';
import { OfficePlayground } from './OfficePlayground.tsx';
import { Segmented } from '../components/Segmented.tsx';

type Tab = 'render' | 'office';

export function AdminPlaygroundPage() {
  const [tab, setTab] = useState<Tab>('render');
  return (
    <>
      <Segmented
        name="playground-tab"
        label="Playground"
        className="playground-tabs"
        value={tab}
        choices={['render', 'office'] as const}
        labels={{ render: 'Web page', office: 'Office file' }}
        onChange={setTab}
      />
      {tab === 'render' ? <PlaygroundPage embedded /> : <OfficePlayground />}
    </>
  );
}
