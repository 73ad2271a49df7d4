// The printed words of a QR-bill in the four languages the style guide gives them (en, de, fr, it).

export type SwissQrLanguage = 'en' | 'de' | 'fr' | 'it';

export interface SwissQrLabels {
  receipt: string;
  paymentPart: string;
  account: string;
  reference: string;
  information: string;
  payableBy: string;
  payableByBlank: string;
  currency: string;
  amount: string;
  acceptancePoint: string;
  separate: string;
}

export const SWISS_QR_LABELS: Record<SwissQrLanguage, SwissQrLabels> = {
  en: {
    receipt: 'Receipt',
    paymentPart: 'Payment part',
    account: 'Account / Payable to',
    reference: 'Reference',
    information: 'Additional information',
    payableBy: 'Payable by',
    payableByBlank: 'Payable by (name/address)',
    currency: 'Currency',
    amount: 'Amount',
    acceptancePoint: 'Acceptance point',
    separate: 'Separate before paying in',
  },
  de: {
    receipt: 'Empfangsschein',
    paymentPart: 'Zahlteil',
    account: 'Konto / Zahlbar an',
    reference: 'Referenz',
    information: 'Zusätzliche Informationen',
    payableBy: 'Zahlbar durch',
    payableByBlank: 'Zahlbar durch (Name/Adresse)',
    currency: 'Währung',
    amount: 'Betrag',
    acceptancePoint: 'Annahmestelle',
    separate: 'Vor der Einzahlung abzutrennen',
  },
  fr: {
    receipt: 'Récépissé',
    paymentPart: 'Section paiement',
    account: 'Compte / Payable à',
    reference: 'Référence',
    information: 'Informations supplémentaires',
    payableBy: 'Payable par',
    payableByBlank: 'Payable par (nom/adresse)',
    currency: 'Monnaie',
    amount: 'Montant',
    acceptancePoint: 'Point de dépôt',
    separate: 'A détacher avant le versement',
  },
  it: {
    receipt: 'Ricevuta',
    paymentPart: 'Sezione pagamento',
    account: 'Conto / Pagabile a',
    reference: 'Riferimento',
    information: 'Informazioni supplementari',
    payableBy: 'Pagabile da',
    payableByBlank: 'Pagabile da (nome/indirizzo)',
    currency: 'Valuta',
    amount: 'Importo',
    acceptancePoint: 'Punto di accettazione',
    separate: 'Da staccare prima del versamento',
  },
};
