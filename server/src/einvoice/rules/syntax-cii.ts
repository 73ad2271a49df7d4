// CII syntax rules (CII-SR-*, CII-DT-*) the corpus needs, checked on the XML itself: they are
// about how CII writes a business term, not about the term.

import type { Rule } from './rule.ts';

const DATE_102 = /^\s*\d{4}(1[0-2]|0[1-9])(3[01]|[12][0-9]|0[1-9])\s*$/;

export const CII_SYNTAX_RULES: readonly Rule[] = [
  {
    id: 'CII-SR-439',
    flag: 'fatal',
    text: 'Each line must carry exactly one net price amount (NetPriceProductTradePrice/ChargeAmount).',
    *check({ invoice }) {
      if (invoice.syntax !== 'CII') return;
      for (const line of invoice.lines) if (line.netPriceCount !== 1) yield line.netPrice?.path ?? `${line.path}/ram:SpecifiedLineTradeAgreement`;
    },
  },
  {
    id: 'CII-SR-470',
    flag: 'fatal',
    text: 'A credit transfer (payment means 30 or 58) must name the payee account (IBANID or ProprietaryID).',
    *check({ invoice }) {
      if (invoice.syntax !== 'CII') return;
      const bare = invoice.paymentMeans.filter(
        (means) => ['30', '58'].includes(means.typeCode?.value.trim() ?? '') && !means.creditTransfers.some((account) => account.accountId),
      );
      if (bare.length > 0) yield bare[0]!.path;
    },
  },
  {
    id: 'CII-DT-097',
    flag: 'fatal',
    text: 'A date with format 102 must be written YYYYMMDD.',
    *check({ invoice, root }) {
      if (invoice.syntax !== 'CII' || !root) return;
      for (const node of root.descendants('udt:DateTimeString')) if (node.attr('format') === '102' && !DATE_102.test(node.text)) yield node.path;
    },
  },
];
