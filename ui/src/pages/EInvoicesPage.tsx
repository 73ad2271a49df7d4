// The E-invoices screen (issue 41, item 5; docs/admin-window.md): drop or pick an e-invoice (an XML,
// or a hybrid PDF that carries one), see its syntax, profile and verdict, each rule set's findings,
// the invoice as a readable summary; download the JSON, and the readable PDF drawn by /render.
// Through the admin twins of the /v1 e-invoice readers: nothing is stored or charged.

import { useState } from 'react';
import { type EInvoiceInspection, inspectEInvoice, type RenderedInvoice, renderEInvoice } from '../api/einvoice.ts';
import { ApiFailure } from '../api/client.ts';
import { Card, ErrorNote, PageHeader, Spinner } from '../components/Page.tsx';
import { FileDropZone } from '../components/FileDropZone.tsx';
import { EInvoiceReport } from '../components/EInvoiceReport.tsx';
import { InvoiceSummary } from '../components/InvoiceSummary.tsx';
import { PdfPreview, downloadPdf } from '../components/PdfPreview.tsx';
import { describeReportHeader } from '../lib/rule-reports.ts';
import { useAction } from '../lib/hooks.ts';

const ACCEPT = 'application/xml,text/xml,.xml,application/pdf,.pdf';

/** The name of a download beside the chosen file: invoice.xml -> invoice.json. */
function besideName(file: File, suffix: string): string {
  return `${file.name.replace(/\.(xml|pdf)$/i, '')}${suffix}`;
}

export function EInvoicesPage() {
  const [file, setFile] = useState<File | null>(null);
  const [inspection, setInspection] = useState<EInvoiceInspection | null>(null);
  const [readable, setReadable] = useState<RenderedInvoice | null>(null);
  const [pdfA, setPdfA] = useState(false);

  const inspect = useAction(async (chosen: File) => {
    setInspection(null);
    setReadable(null);
    setInspection(await inspectEInvoice(chosen));
  });
  const render = useAction(async () => {
    if (!file) return;
    try {
      setReadable(await renderEInvoice(file, pdfA ? { pdf_a: 'PDF/A-3b', attach_xml: true } : {}));
    } catch (failure) {
      // A server without POST /einvoice/render yet: say so instead of "not found".
      if (failure instanceof ApiFailure && failure.status === 404 && failure.code !== 'template_not_found')
        throw new Error('This server cannot draw e-invoices as PDF yet (POST /v1/einvoice/render is not there).');
      throw failure;
    }
  });

  const choose = (chosen: File) => {
    setFile(chosen);
    void inspect.run(chosen);
  };
  const downloadJson = () => {
    if (!file || !inspection) return;
    const json = new TextEncoder().encode(`${JSON.stringify(inspection.invoice, null, 2)}\n`);
    downloadPdf(json, besideName(file, '.json'), 'application/json');
  };

  return (
    <>
      <PageHeader
        title="E-invoices"
        description="Read an e-invoice (CII or UBL XML, or a Factur-X / ZUGFeRD / XRechnung PDF): its profile, the EN 16931, XRechnung and Peppol rule reports, and the invoice itself. Nothing is stored or counted."
      />
      <Card title="The e-invoice" className="padded">
        <FileDropZone
          file={file}
          accept={ACCEPT}
          prompt="Drop an e-invoice here"
          hint="XML (CII, UBL Invoice or CreditNote) or a PDF with an e-invoice inside"
          label="E-invoice file (XML or PDF)"
          testId="einvoice-file"
          onFile={choose}
        />
        {inspect.busy && (
          <p role="status">
            <Spinner /> Reading…
          </p>
        )}
        <ErrorNote>{inspect.error}</ErrorNote>
      </Card>

      {inspection && file && (
        <>
          <Card
            title="Rule report"
            className="padded"
            actions={
              <button type="button" className="button small" onClick={downloadJson}>
                Download JSON
              </button>
            }
          >
            <div className="inspection">
              <dl className="facts" data-testid="einvoice-facts">
                <Fact name="Syntax" value={inspection.syntax} />
                <Fact name="Document" value={inspection.document} />
                <Fact name="Profile" value={inspection.profile ?? 'unknown'} />
                <Fact name="Specification (BT-24)" value={inspection.specification_id ?? '—'} />
                {inspection.source?.kind === 'pdf' && <Fact name="Read from" value={`the PDF's ${inspection.source.attachment}`} />}
              </dl>
            </div>
            <EInvoiceReport key={file.name + inspection.rule_set} inspection={inspection} />
          </Card>
          <Card title="The invoice" className="padded">
            <InvoiceSummary invoice={inspection.invoice} />
          </Card>
          <Card
            title="Readable PDF"
            className="padded"
            actions={
              <>
                <label className="checkbox small">
                  <input type="checkbox" checked={pdfA} onChange={(event) => setPdfA(event.target.checked)} /> PDF/A-3b with the XML attached
                </label>
                <button type="button" className="button small" onClick={() => void render.run()} disabled={render.busy}>
                  {render.busy ? 'Drawing…' : 'Draw as PDF'}
                </button>
                <button type="button" className="button small" disabled={!readable} onClick={() => readable && downloadPdf(readable.bytes, readable.filename)}>
                  Download PDF
                </button>
              </>
            }
          >
            <ErrorNote>{render.error}</ErrorNote>
            {readable?.report && (
              <p className="muted small" data-testid="readable-report">
                {describeReportHeader(readable.report)}
              </p>
            )}
            <PdfPreview bytes={readable?.bytes ?? null} label="Readable e-invoice" busy={render.busy} empty="Draw the invoice as a PDF to see it here." />
          </Card>
        </>
      )}
    </>
  );
}

function Fact({ name, value }: { name: string; value: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}
