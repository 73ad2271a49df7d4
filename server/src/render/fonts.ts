// Font set-up for Chromium: a fontconfig file that includes the system configuration and adds
// FONTS_DIR, so an operator's own fonts reach every render without installing them system-wide.

import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

const SYSTEM_CONF = ['/etc/fonts/fonts.conf', '/usr/local/etc/fonts/fonts.conf'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Writes a fontconfig file into workDir and returns the environment Chromium should get
 * (FONTCONFIG_FILE), or an empty object when there is nothing to add.
 */
export async function fontEnvironment(fontsDir: string, workDir: string): Promise<Record<string, string>> {
  if (!fontsDir) return {};
  const systemConf = SYSTEM_CONF.find((file) => existsSync(file));
  const cacheDir = path.join(workDir, 'fontconfig-cache');
  await mkdir(cacheDir, { recursive: true });
  const conf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    systemConf ? `  <include ignore_missing="yes">${escapeXml(systemConf)}</include>` : '  <dir>/usr/share/fonts</dir>',
    `  <dir>${escapeXml(path.resolve(fontsDir))}</dir>`,
    `  <cachedir>${escapeXml(cacheDir)}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  const file = path.join(workDir, 'fonts.conf');
  await writeFile(file, conf);
  return { FONTCONFIG_FILE: file };
}
