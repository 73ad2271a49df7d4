// The signing step of services/output/steps.ts (order 90, the last): a PAdES signature over every
// byte the earlier steps made, in an incremental update, so a PDF/A stays PDF/A and attachments
// stay as they are. Refusals come before the charge: an unknown or another key's certificate
// (404), one outside its validity (422), sign with encrypt, a visible box with pdf_a (its font is
// not embedded), B-T without a TSA (400). A TSA that does not answer is a 503 (signing/errors.ts),
// and the render is then neither kept nor charged.

import { ApiError } from '../../errors.ts';
import { SignInputError } from '../../signing/errors.ts';
import { signOptionsSchema, type SignOptions } from '../../signing/sign-options.ts';
import { signPdf } from '../../signing/sign-pdf.ts';
import { prepareInWorker } from '../../signing/signing-pool.ts';
import type { TsaConfig } from '../../signing/tsa.ts';
import type { CertificatesService } from './certificates.ts';
import type { OutputOptions, OutputStep, StepContext, StepOutcome } from '../output/steps.ts';

export class SignStep implements OutputStep {
  readonly name = 'sign';
  readonly order = 90;

  constructor(
    private readonly certificates: CertificatesService,
    private readonly tsa: TsaConfig | undefined,
  ) {}

  wanted(options: OutputOptions): boolean {
    return options.sign !== undefined;
  }

  async check(options: OutputOptions, context: StepContext): Promise<void> {
    if (options.sign === undefined) return;
    const field = `${context.field}.sign`;
    const sign = this.parse(options, field);
    if (options.encrypt !== undefined)
      throw new ApiError(
        'invalid_request',
        `${field}: a signed PDF cannot be encrypted here (encryption rewrites the file and would break the signature); leave out encrypt or sign.`,
      );
    if (sign.visible && options.pdf_a !== undefined)
      throw new ApiError(
        'invalid_request',
        `${field}.visible: a visible signature draws text in a font that is not embedded, which PDF/A forbids; leave out visible (the signature is still shown in the reader's signature panel).`,
      );
    if (sign.level === 'B-T' && !this.tsa)
      throw new ApiError(
        'invalid_request',
        `${field}.level: B-T needs a time-stamping authority and this server has none (the operator sets TSA_URL); use B-B.`,
      );
    await this.certificates.usable(sign.certificate_id, context.account.keyId);
  }

  async apply(pdf: Uint8Array, options: OutputOptions, context: StepContext): Promise<StepOutcome> {
    const field = `${context.field}.sign`;
    const sign = this.parse(options, field);
    const record = await this.certificates.usable(sign.certificate_id, context.account.keyId);
    const signer = await this.certificates.signerFor(record);
    const visible = sign.visible && {
      page: sign.visible.page,
      box: [sign.visible.x, sign.visible.y, sign.visible.width, sign.visible.height] as [number, number, number, number],
      text:
        sign.visible.text ??
        [`Digitally signed by ${commonName(record.subject)}`, sign.reason && `Reason: ${sign.reason}`, `Date: ${new Date().toISOString().slice(0, 19)}Z`]
          .filter(Boolean)
          .join('\n'),
    };
    let signed: Awaited<ReturnType<typeof signPdf>>;
    try {
      signed = await signPdf(
        pdf,
        signer,
        { level: sign.level, reason: sign.reason, location: sign.location, contact: sign.contact, name: commonName(record.subject), visible, tsa: this.tsa },
        prepareInWorker,
      );
    } catch (error) {
      if (error instanceof SignInputError) throw new ApiError('invalid_request', `${field}: ${error.message}.`);
      throw error;
    }
    const warning = this.certificates.warning(record);
    return {
      pdf: signed.pdf,
      headers: { 'X-PDF-Signature': `PAdES-${sign.level}; certificate=${record.fingerprint}` },
      // The receipt names the certificate by id and fingerprint only: never its key.
      report: {
        certificate_id: record.id,
        fingerprint: record.fingerprint,
        subject: record.subject,
        level: sign.level,
        ...(signed.timestamp ? { tsa: new URL(this.tsa!.url).host, timestamp: signed.timestamp.time, tsa_name: signed.timestamp.authority } : {}),
        ...(warning ? { warning: `certificate ${warning}` } : {}),
      },
    };
  }

  private parse(options: OutputOptions, field: string): SignOptions {
    const parsed = signOptionsSchema.safeParse(options.sign);
    if (!parsed.success) throw new ApiError('invalid_request', `${field}: ${parsed.error.issues[0]?.message ?? 'is not valid'}.`);
    return parsed.data;
  }
}

const commonName = (subject: string): string => /(?:^|, )CN=([^,]+)/.exec(subject)?.[1] ?? subject;
