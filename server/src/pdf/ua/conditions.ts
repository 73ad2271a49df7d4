// The PDF/UA-1 conditions this checker decides, named by their Matterhorn Protocol 1.1 number
// (or, where Matterhorn has none, by the ISO 14289-1 clause), the shape of its report, and what
// it leaves to a person. One list: the report's `checks` count and docs/decisions.md read it.

/** Matterhorn failure conditions (and ISO 14289-1 clauses) decided from the file alone. */
export const UA_CONDITIONS = {
  'UA1:7.1-marked': 'the catalog has no MarkInfo dictionary with Marked true',
  '01-003': 'content marked as Artifact is present inside tagged content',
  '01-004': 'tagged content is present inside content marked as Artifact',
  '01-005': 'content is neither marked as Artifact nor tagged as real content',
  '01-007': 'the MarkInfo Suspects entry is true',
  '02-001': "a non-standard structure type's mapping does not end at a standard type",
  '02-003': 'the role map has a circular mapping',
  '02-004': 'a standard structure type is remapped',
  '06-001': 'the document has no XMP metadata stream',
  '06-002': 'the XMP metadata has no PDF/UA identifier (pdfuaid:part)',
  '06-003': 'the XMP metadata has no dc:title',
  '07-001': 'the ViewerPreferences have no DisplayDocTitle entry',
  '07-002': 'DisplayDocTitle is false',
  '10-001': 'a ToUnicode map gives a character no usable Unicode value (U+0000, U+FEFF, U+FFFE)',
  '11-006': 'the natural language of the document (catalog Lang) cannot be determined',
  '13-004': 'a Figure has neither Alt nor ActualText',
  '14-002': 'numbered headings are used but the first is not H1',
  '14-003': 'numbered heading levels are skipped going down (an H3 directly after an H1)',
  '14-007': 'the document uses both H and numbered H1-H6 headings',
  '15-003': 'a TH cell has no Scope in a table not organised with Headers and IDs',
  '17-002': 'a Formula has no Alt',
  '19-003': 'a Note has no ID',
  '19-004': "a Note's ID is not unique",
  '28-004': 'an annotation (not a Widget or Link) has neither Contents nor an Alt on its structure element',
  '28-008': 'a page with annotations has no Tabs entry',
  '28-009': 'a page with annotations has a Tabs entry other than S',
  '28-011': 'a Link annotation is not nested in a Link structure element',
  '28-012': 'a Link annotation has no alternate description in Contents',
  '31-009': 'a font used for text is not embedded',
  '31-027': 'a font has no ToUnicode map and is not one whose characters map to Unicode by their encoding',
} as const;

export type UaCondition = keyof typeof UA_CONDITIONS;

export interface UaFinding {
  condition: UaCondition;
  /** 1-based, where the condition belongs to a page. */
  page?: number;
  detail: string;
}

/** What a machine cannot decide: reported on every file so a person knows what is left to look at. */
export interface NeedsPerson {
  topic: 'alternative text' | 'reading order' | 'colour and contrast' | 'artifacts and real content' | 'link descriptions';
  /** Matterhorn's human-checked conditions it covers, where there are. */
  conditions: string[];
  detail: string;
}

export interface UaReport {
  level: 'PDF/UA-1';
  checker: 'quire';
  /** How many conditions were decided. */
  checks: number;
  failed: UaFinding[];
  needs_person: NeedsPerson[];
  passed: boolean;
}

/** Findings beyond this many per condition are summed up in one more: the report stays readable on a 500-page file. */
export const MAX_FINDINGS_PER_CONDITION = 20;
