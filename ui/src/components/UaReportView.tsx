// A PDF/UA report on screen (docs/api.md#pdfua): each failed Matterhorn condition with its page and
// what is wrong, then what the checker leaves to a person. Shown under a refused render (422) in the
// playgrounds and the studio, and in a receipt's accessibility section. Presentational.

import type { UaReport } from '../lib/ua-report.ts';

export function UaReportView({ report, headingLevel = 3 }: { report: UaReport; headingLevel?: 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="ua-report" aria-label="Accessibility report" data-testid="ua-report">
      <p>
        {report.level}: {report.checks} conditions checked, {report.failed.length === 0 ? 'none failed' : `${report.failed.length} failed`}
      </p>
      {report.failed.length > 0 && (
        <table className="table ua-failed" aria-label="Failed conditions">
          <thead>
            <tr>
              <th scope="col">Matterhorn</th>
              <th scope="col">Page</th>
              <th scope="col">What is wrong</th>
            </tr>
          </thead>
          <tbody>
            {report.failed.map((finding, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a condition may fail on several pages and with the same detail; the list is never reordered
              <tr key={index} data-condition={finding.condition}>
                <td className="mono nowrap">{finding.condition}</td>
                <td className="num">{finding.page ?? '–'}</td>
                <td>{finding.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.needs_person.length > 0 && (
        <>
          <Heading className="ua-heading">Needs a person</Heading>
          <ul className="ua-needs-person" aria-label="Needs a person">
            {report.needs_person.map((item) => (
              <li key={item.topic}>
                <strong>{item.topic}</strong>
                {item.conditions.length > 0 && <span className="muted small"> ({item.conditions.join(', ')})</span>}: {item.detail}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
