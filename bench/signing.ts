// Bench: what signing costs per document beside the plain invoice render, on one service in one
// run: PAdES B-B (placeholder update on the signing worker, CMS, RSA-2048 signature) and B-T (plus a
// timestamp from an RFC 3161 TSA on loopback: `openssl ts -reply` started per request, so B-T's
// figure is an upper bound a real TSA's latency replaces). Needs openssl (the test PKI).
// Run: npx tsx bench/signing.ts

import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { makeTestPki, startTestTsa } from '../tests/helpers/test-pki.ts';
import { isMain, printAlone } from './alone.ts';
import { measure, SECONDS } from './cells.ts';
import { startServiceProcess } from './service-process.ts';
import { invoiceHtml } from './workloads.ts';

const CONCURRENCY = Number(process.env.BENCH_SIGNING_CONCURRENCY ?? 1);

export async function measureSigning(): Promise<string> {
  const pki = await makeTestPki();
  const tsa = await startTestTsa(pki);
  const trust = path.join(pki.dir, 'trust.pem');
  await writeFile(trust, pki.caPem);
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const service = await startServiceProcess({ chromePath: executable.path, env: { TSA_URL: tsa.url, TSA_ALLOW_HOSTS: '127.0.0.1', TRUST_STORE: trust } });
  try {
    const imported = await fetch(`${service.url}/admin/v1/certificates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key_pem: pki.signer.key, certificate_pem: pki.signer.cert + pki.caPem }),
    });
    const { id } = (await imported.json()) as { id: string };
    await fetch(`${service.url}/admin/v1/certificates/${id}/grants`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key_ids: [await keyId(service.url, service.adminToken)] }),
    });
    const html = invoiceHtml();
    const variants = [
      { name: 'invoice (plain)', options: { wait_until: 'load' } },
      { name: '+ sign B-B', options: { wait_until: 'load', sign: { certificate_id: id } } },
      { name: '+ sign B-T (loopback TSA)', options: { wait_until: 'load', sign: { certificate_id: id, level: 'B-T' } } },
    ];
    const rows = [
      `Signing beside a plain invoice render (c=${CONCURRENCY}, ${SECONDS}s per row)`,
      '',
      '| variant | r/s | p50 ms | p50 - plain ms |',
      '|---|---|---|---|',
    ];
    let plainP50: number | undefined;
    for (const variant of variants) {
      const body = JSON.stringify({ html, options: variant.options });
      const once = async () => {
        const response = await service.render(body);
        if (response.status !== 200) throw new Error(`${variant.name} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      };
      await once();
      const { perSecond, p50 } = await measure(once, CONCURRENCY, SECONDS);
      plainP50 ??= p50;
      rows.push(`| ${variant.name} | ${perSecond.toFixed(2)} | ${p50.toFixed(0)} | ${(p50 - plainP50).toFixed(0)} |`);
      console.error(`  signing ${variant.name}: ${perSecond.toFixed(2)}/s p50 ${p50.toFixed(0)} ms`);
    }
    return rows.join('\n');
  } finally {
    await service.stop();
    await tsa.close();
    await pki.close();
  }
}

/** The bench key's id (the admin list's only key). */
async function keyId(url: string, adminToken: string): Promise<string> {
  const { data } = (await (await fetch(`${url}/admin/v1/keys`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { data: { id: string }[] };
  return data[0]!.id;
}

if (isMain(import.meta.url)) await printAlone(measureSigning);
