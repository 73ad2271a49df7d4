// Peppol rules about how the XML is written rather than what it says, checked on the XML: no
// empty elements (R008), allowance/charge indicators spelt true or false (R043), a price
// allowance that is an allowance (R044), line document references only of type 130 (R101).

import type { Node } from '../xml/located-node.ts';
import type { Rule } from './rule.ts';

function* emptyElements(node: Node): Generator<string> {
  // CII requires ApplicableHeaderTradeDelivery even when there is nothing to deliver-to; left empty it is no fault.
  if (node.element.localName === 'ApplicableHeaderTradeDelivery') return;
  let hasChild = false;
  for (let child = node.element.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) hasChild = true;
  if (!hasChild && (node.element.textContent ?? '').trim() === '') yield node.path;
}

export const PEPPOL_SYNTAX_RULES: Record<string, Rule> = {
  'PEPPOL-EN16931-R008': {
    id: 'PEPPOL-EN16931-R008',
    flag: 'fatal',
    text: 'The document must not contain empty elements.',
    *check({ root }) {
      if (!root) return;
      yield* emptyElements(root);
      for (const node of root.descendants('*')) yield* emptyElements(node);
    },
  },
  'PEPPOL-EN16931-R043': {
    id: 'PEPPOL-EN16931-R043',
    flag: 'fatal',
    text: 'An allowance or charge indicator must be written true or false.',
    *check({ invoice, root }) {
      if (!root) return;
      const indicators =
        invoice.syntax === 'CII'
          ? [...root.descendants('ram:SpecifiedTradeAllowanceCharge'), ...root.descendants('ram:AppliedTradeAllowanceCharge')].map(
              (ac) => ac.at('ram:ChargeIndicator/udt:Indicator') ?? ac,
            )
          : root
              .descendants('cac:AllowanceCharge')
              .filter((ac) => !ac.path.includes('cac:Price'))
              .map((ac) => ac.one('cbc:ChargeIndicator') ?? ac);
      for (const indicator of indicators) if (!['true', 'false'].includes(indicator.text.trim())) yield indicator.path;
    },
  },
  'PEPPOL-EN16931-R044': {
    id: 'PEPPOL-EN16931-R044',
    flag: 'fatal',
    text: 'A price allowance must be an allowance (charge indicator false).',
    *check({ root }) {
      for (const ac of root?.descendants('cac:Price').flatMap((price) => price.all('cac:AllowanceCharge')) ?? [])
        if (ac.one('cbc:ChargeIndicator')?.text.trim() !== 'false') yield ac.path;
    },
  },
  'PEPPOL-EN16931-R101': {
    id: 'PEPPOL-EN16931-R101',
    flag: 'fatal',
    text: 'A line may refer only to an invoiced object (document type 130).',
    *check({ invoice, root }) {
      if (!root) return;
      const references =
        invoice.syntax === 'CII'
          ? root
              .descendants('ram:IncludedSupplyChainTradeLineItem')
              .flatMap((line) => line.each('ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument'))
          : [...root.descendants('cac:InvoiceLine'), ...root.descendants('cac:CreditNoteLine')].flatMap((line) => line.all('cac:DocumentReference'));
      const typeOf = (ref: Node) => (invoice.syntax === 'CII' ? ref.one('ram:TypeCode') : ref.one('cbc:DocumentTypeCode'))?.text.trim();
      for (const reference of references) if (typeOf(reference) !== '130') yield reference.path;
    },
  },
};
