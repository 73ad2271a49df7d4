// The PDF/UA-1 conditions on page content (01-003, 01-004, 01-005), from the marked-content scan
// of every page's content streams. What is approximated: form XObjects' own content is not
// entered (their Do counts where it stands), and tagged sequences whose MCID no structure
// element claims still count as tagged.

import type { PDFDocument } from '@cantoo/pdf-lib';
import type { UaCondition, UaFinding } from './conditions.ts';
import { scanMarkedContent } from './marked-content.ts';
import { pageStreams } from './page-content.ts';

export const CONTENT_CONDITIONS: UaCondition[] = ['01-003', '01-004', '01-005'];

export function checkContent(doc: PDFDocument, tagged: boolean): UaFinding[] {
  const findings: UaFinding[] = tagged ? [] : [{ condition: '01-005', detail: 'the document has no structure tree: no content is tagged' }];
  doc.getPages().forEach((page, index) => {
    let untagged = 0;
    let artifactInTagged = 0;
    let taggedInArtifact = 0;
    for (const { bytes } of pageStreams(page)) {
      const scan = scanMarkedContent(bytes);
      untagged += scan.untagged;
      artifactInTagged += scan.artifactInTagged;
      taggedInArtifact += scan.taggedInArtifact;
    }
    const at = { page: index + 1 };
    if (tagged && untagged > 0) findings.push({ condition: '01-005', ...at, detail: `${untagged} painting operators neither tagged nor artifacts` });
    if (artifactInTagged > 0) findings.push({ condition: '01-003', ...at, detail: `${artifactInTagged} artifacts inside tagged content` });
    if (taggedInArtifact > 0) findings.push({ condition: '01-004', ...at, detail: `${taggedInArtifact} tagged sequences inside artifacts` });
  });
  return findings;
}
