// A date as UBL writes it (xs:date, YYYY-MM-DD): the ISO form when the date was read as valid
// (a CII format-102 date included), else the text as it came, so a bad date is not hidden.

import type { DateValue } from '../model/invoice-model.ts';

export const ublDate = (date: DateValue | undefined): string | undefined => (date ? (date.iso ?? date.value) : undefined);
