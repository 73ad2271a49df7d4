// An inspected e-invoice as a person reads it: number, dates, the two parties, the lines and the
// totals, from our JSON (docs/api.md#reading-an-e-invoice). The JSON is read defensively: a field an
// invoice leaves out is left out here, and a model that grows new fields still draws. Presentational.

import { Table } from './Table.tsx';

type Json = Record<string, unknown>;

const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
/** A scalar as text; a dated value ({value, format, iso}) by its ISO date; an amount ({value, currency}) by its value. */
function text(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const nested = object(value);
  return nested.iso !== undefined ? text(nested.iso) : nested.value !== undefined ? text(nested.value) : '';
}

const TOTALS: [string, string][] = [
  ['line_net_total', 'Sum of lines'],
  ['allowance_total', 'Allowances'],
  ['charge_total', 'Charges'],
  ['tax_exclusive', 'Total without VAT'],
  ['vat_totals', 'VAT'],
  ['tax_inclusive', 'Total with VAT'],
  ['prepaid', 'Paid'],
  ['payable', 'Amount due'],
];

function Party({ title, party }: { title: string; party: Json }) {
  const address = object(party.address);
  const place = [text(address.post_code), text(address.city)].filter(Boolean).join(' ');
  const lines = [text(address.line1), text(address.line2), place, text(address.country_code)].filter(Boolean);
  return (
    <div className="invoice-party" data-testid={`invoice-${title.toLowerCase()}`}>
      <h3>{title}</h3>
      <p className="strong">{text(party.name) || '—'}</p>
      {lines.length > 0 && <p className="small">{lines.join(', ')}</p>}
      {text(party.vat_id) && <p className="small">VAT id {text(party.vat_id)}</p>}
      {text(party.electronic_address) && <p className="small mono">{text(party.electronic_address)}</p>}
    </div>
  );
}

export function InvoiceSummary({ invoice }: { invoice: Json }) {
  const currency = text(invoice.currency);
  const totals = object(invoice.totals);
  const vat = list(totals.vat_totals).find((total) => !total.currency || text(total.currency) === currency) ?? object(totals.vat_totals);
  const facts: [string, string][] = [
    ['Number', text(invoice.number)],
    ['Type code', text(invoice.type_code)],
    ['Issued', text(invoice.issue_date)],
    ['Due', text(invoice.due_date)],
    ['Currency', currency],
    ['Buyer reference', text(invoice.buyer_reference)],
  ];
  return (
    <div className="inspection invoice-summary">
      <dl className="facts">
        {facts
          .filter(([, value]) => value)
          .map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <div className="invoice-parties">
        <Party title="Seller" party={object(invoice.seller)} />
        <Party title="Buyer" party={object(invoice.buyer)} />
      </div>
      <Table
        label="Invoice lines"
        className="compact"
        columns={[
          { label: '#' },
          { label: 'Item' },
          { label: 'Quantity', className: 'num' },
          { label: 'Price', className: 'num' },
          { label: 'VAT' },
          { label: 'Net', className: 'num' },
        ]}
      >
        {list(invoice.lines).map((line, index) => {
          const quantity = object(line.quantity);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: line ids are the invoice's own and need not be unique
            <tr key={index}>
              <td>{text(line.id)}</td>
              <td>{text(object(line.item).name)}</td>
              <td className="num nowrap">
                {text(quantity.value)} {text(quantity.unit_code)}
              </td>
              <td className="num">{text(line.net_price)}</td>
              <td className="nowrap">
                {text(line.vat_category)} {text(line.vat_rate) && `${text(line.vat_rate)} %`}
              </td>
              <td className="num">{text(line.net_amount)}</td>
            </tr>
          );
        })}
      </Table>
      <dl className="facts invoice-totals" data-testid="invoice-totals">
        {TOTALS.map(([key, name]) => {
          const value = key === 'vat_totals' ? text(vat) : text(totals[key]);
          return value ? (
            <div key={key}>
              <dt>{name}</dt>
              <dd className="num">
                {value} {currency}
              </dd>
            </div>
          ) : null;
        })}
      </dl>
    </div>
  );
}
