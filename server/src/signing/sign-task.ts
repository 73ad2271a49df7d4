// The messages between the server and the signing worker thread (sign-worker.ts): the placeholder
// update of a signature, and reading a PDF's signatures for verify.

import type { PlaceholderOptions, Prepared } from './placeholder.ts';
import type { SignatureReport, VerifyContext } from './verify.ts';

export type SignTask = { kind: 'prepare'; pdf: Uint8Array; options: PlaceholderOptions } | { kind: 'verify'; pdf: Uint8Array; context: VerifyContext };

export type SignTaskResult = Prepared | SignatureReport[];
