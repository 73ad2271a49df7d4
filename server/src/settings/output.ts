// Output-step settings: veraPDF for PDF/A, the signing keys, the TSA, a PKCS#11 token, and the trust store verify reads.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { integer, list, setting, text } from './parsers.ts';

export const outputSettings = {
  veraPdfPath: setting(
    'VERAPDF_PATH',
    '',
    text,
    'veraPDF command: when set, every PDF/A output is also validated by it and its verdict joins the conformance report (a FAIL is a 422). Empty: the built-in checker alone.',
  ),
  signingKeyFile: setting(
    'SIGNING_KEY_FILE',
    '',
    text,
    'File holding the master key (32 random bytes, base64) that encrypts imported signing keys at rest with AES-256-GCM. Default: DATA_DIR/signing-key, created with mode 0600 on first use.',
  ),
  signingKey: setting(
    'SIGNING_KEY',
    '',
    text,
    'The master key itself (base64 of 32 bytes), instead of SIGNING_KEY_FILE; for secret managers that hand it in the environment.',
  ),
  tsaUrl: setting('TSA_URL', '', text, 'RFC 3161 time-stamping authority for sign level B-T (http or https). Empty: B-T is refused.'),
  tsaCredentials: setting('TSA_CREDENTIALS', '', text, 'user:password for the TSA (HTTP basic authentication), when it asks.'),
  tsaAllowHosts: setting(
    'TSA_ALLOW_HOSTS',
    [] as readonly string[],
    list,
    "Hosts the TSA may be on (comma list, host or host:port); TSA_URL's host must be on it. Separate from the page guard: a TSA on the private network is allowed here only.",
  ),
  tsaTimeoutMs: setting(
    'TSA_TIMEOUT_MS',
    10_000,
    integer(100, 120_000),
    'Longest wait for the TSA; beyond it the signature is not made: 503 timestamp_unavailable, not charged.',
  ),
  pkcs11Module: setting(
    'PKCS11_MODULE',
    '',
    text,
    'PKCS#11 library (.so) of a token that holds signing keys (an HSM, a smart card, SoftHSM2). Empty: no token; certificates carry sealed software keys only.',
  ),
  pkcs11TokenLabel: setting(
    'PKCS11_TOKEN_LABEL',
    '',
    text,
    'The label of the token in PKCS11_MODULE whose keys sign (certificates imported with token_key_label).',
  ),
  pkcs11Pin: setting('PKCS11_PIN', '', text, "The token's user PIN. Set it in the environment, not as a flag (flags show in the process list)."),
  trustStore: setting('TRUST_STORE', '', text, 'File of PEM root certificates POST /v1/pdf/verify trusts. Empty: no chain is reported trusted.'),
} as const;
