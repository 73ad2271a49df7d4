// `npm run -s cli -- certificates ...`: import, list and delete signing certificates, and rotate the
// master key that seals their private keys. Import, list and delete go through a running server's
// admin API when one owns DATA_DIR (it alone writes the files), else on the store itself (the files
// under the lock, or PostgreSQL). Rotation needs every server stopped: they hold the old key.

import { randomBytes } from 'node:crypto';
import { readFile, rename, stat } from 'node:fs/promises';
import type { Config } from './config.ts';
import { adminCaller } from './cli-admin-api.ts';
import { CertificatesService, type CertificateView } from './services/signing/certificates.ts';
import { tokenConfig } from './signing/pkcs11.ts';
import { lockDataDir, lockHolder } from './stores/data-dir-lock.ts';
import { writeFileDurably } from './stores/durable-file.ts';
import { openCertificateStore } from './stores/open-stores.ts';
import { decodeMasterKey, loadMasterKey, masterKeyFile } from './stores/signing-master-key.ts';

export const CERTIFICATES_USAGE = `  certificates import (--p12 FILE --password-env VAR | --key FILE --cert FILE [--password-env VAR] | --token-key-label LABEL --cert FILE)
                      [--owner KEY_ID] [--name NAME]
                                                       import a signing certificate (the password is read from the
                                                       environment variable named, never from the command line)
  certificates list [--json]                           every certificate with its expiry
  certificates delete ID                               delete one with its sealed key
  certificates rotate-master-key [--new-key-file FILE] re-seal every private key under a new master key (servers stopped)`;

export interface CertificateFlags {
  p12?: string;
  key?: string;
  cert?: string;
  'password-env'?: string;
  owner?: string;
  name?: string;
  json?: boolean;
  'new-key-file'?: string;
  'token-key-label'?: string;
}

type Caller = <T>(method: string, route: string, body?: unknown) => Promise<T>;

export async function certificatesCommand(
  config: Config,
  verb: string | undefined,
  id: string | undefined,
  flags: CertificateFlags,
  usage: (message: string) => Error,
): Promise<void> {
  if (verb === 'rotate-master-key') return rotate(config, flags['new-key-file']);
  const run = async (call: Caller) => {
    switch (verb) {
      case 'import': {
        const password = flags['password-env'] !== undefined ? process.env[flags['password-env']] : undefined;
        if (flags['password-env'] !== undefined && password === undefined) throw usage(`the environment variable ${flags['password-env']} is not set`);
        let body: Record<string, unknown>;
        if (flags.p12) body = { pkcs12: (await readFile(flags.p12)).toString('base64'), password: password ?? '' };
        else if (flags['token-key-label'] && flags.cert)
          body = { token_key_label: flags['token-key-label'], certificate_pem: await readFile(flags.cert, 'utf8') };
        else if (flags.key && flags.cert) body = { key_pem: await readFile(flags.key, 'utf8'), certificate_pem: await readFile(flags.cert, 'utf8'), password };
        else throw usage('certificates import needs --p12 FILE (with --password-env VAR) or --key FILE and --cert FILE');
        const view = await call<CertificateView>('POST', '/admin/v1/certificates', { ...body, owner_key_id: flags.owner, name: flags.name });
        console.log(view.id);
        console.error(`imported ${view.subject} (sha256 ${view.fingerprint}), valid until ${view.not_after}${view.warning ? `: ${view.warning}` : ''}`);
        return;
      }
      case 'list': {
        const { data } = await call<{ data: CertificateView[] }>('GET', '/admin/v1/certificates');
        if (flags.json) console.log(JSON.stringify(data, null, 2));
        else
          for (const cert of data)
            console.log(
              [cert.id, cert.owner ?? 'operator', cert.not_after, cert.fingerprint.slice(0, 16), cert.subject, cert.warning ?? ''].join('\t').trimEnd(),
            );
        return;
      }
      case 'delete':
        if (!id) throw usage('certificates delete needs the certificate id');
        await call('DELETE', `/admin/v1/certificates/${encodeURIComponent(id)}`);
        console.error(`deleted ${id}`);
        return;
      default:
        throw usage(`unknown command "certificates ${verb ?? ''}"`);
    }
  };
  const holder = config.databaseUrl ? undefined : await lockHolder(config.dataDir);
  if (holder?.role === 'server' && holder.url) return run(await adminCaller(holder.url, config.dataDir, config.adminToken));
  await withService(config, (service) => run(localCaller(service)));
}

/** The admin routes' answers from the service itself, for when no server runs. */
function localCaller(service: CertificatesService): Caller {
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    if (method === 'GET') return { data: await service.listAll() } as T;
    if (method === 'DELETE') return service.delete(decodeURIComponent(route.split('/').pop()!)) as Promise<T>;
    const request = body as {
      pkcs12?: string;
      password?: string;
      key_pem?: string;
      certificate_pem?: string;
      token_key_label?: string;
      owner_key_id?: string;
      name?: string;
    };
    if (request.token_key_label !== undefined)
      return service.import(
        { tokenKeyLabel: request.token_key_label, certificatePem: request.certificate_pem! },
        request.owner_key_id ?? null,
        request.name,
      ) as Promise<T>;
    const source =
      request.pkcs12 !== undefined
        ? { pkcs12: Buffer.from(request.pkcs12, 'base64'), password: request.password ?? '' }
        : { keyPem: request.key_pem!, certificatePem: request.certificate_pem!, password: request.password };
    return service.import(source, request.owner_key_id ?? null, request.name) as Promise<T>;
  };
}

async function withService(config: Config, work: (service: CertificatesService) => Promise<void>): Promise<void> {
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir, 'cli');
  try {
    const { store, close } = await openCertificateStore(config);
    try {
      let master: Promise<Buffer> | undefined;
      await work(new CertificatesService(store, () => (master ??= loadMasterKey(config)), undefined, tokenConfig(config)));
    } finally {
      await close();
    }
  } finally {
    await lock?.release();
  }
}

/**
 * New master key: --new-key-file (the operator made it), else 32 random bytes written beside the
 * key file as .new first, so an interrupted rotation resumes with the same key; records already
 * sealed under it are skipped. The .new file replaces the key file only once every key is re-sealed.
 */
async function rotate(config: Config, newKeyFile: string | undefined): Promise<void> {
  if (config.signingKey && !newKeyFile)
    throw new Error(
      'SIGNING_KEY is set: make the new key yourself (openssl rand -base64 32 > FILE), pass --new-key-file FILE, then put its content in SIGNING_KEY',
    );
  const current = masterKeyFile(config);
  const pending = `${current}.new`;
  let fresh: Buffer;
  if (newKeyFile) fresh = decodeMasterKey(await readFile(newKeyFile, 'utf8'), newKeyFile);
  else if (await stat(pending).catch(() => undefined)) fresh = decodeMasterKey(await readFile(pending, 'utf8'), pending);
  else {
    fresh = randomBytes(32);
    await writeFileDurably(pending, `${fresh.toString('base64')}\n`);
  }
  const old = await loadMasterKey(config);
  await withService(config, async (service) => {
    const changed = await service.rotate(old, fresh);
    if (!newKeyFile) await rename(pending, current);
    console.error(
      `re-sealed ${changed} key(s) under the new master key${newKeyFile ? `; now set SIGNING_KEY_FILE (or SIGNING_KEY) to ${newKeyFile}'s key` : ` (${current}; keep a backup of it)`}`,
    );
  });
}
