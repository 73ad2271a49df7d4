// The LibreOffice profile each pooled process starts with: a fresh folder per process start,
// seeded with the settings that keep a stranger's document from doing anything but being read
// (docs/decisions.md#office-documents-through-a-warm-libreoffice-pool). Only writes files.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// path, property, type, value
const SETTINGS: [string, string, string, string][] = [
  // Macros: the highest security level, and macro execution switched off altogether.
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', 'int', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'boolean', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'boolean', 'true'],
  // Links to other files and OLE objects are never refreshed on load (the document's cached view is used).
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', 'int', '0'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', 'int', '0'],
  // Spreadsheets are not recalculated on load: a formula such as WEBSERVICE() must not run.
  ['/org.openoffice.Office.Calc/Formula/Load', 'OOXMLRecalcMode', 'int', '1'],
  ['/org.openoffice.Office.Calc/Formula/Load', 'ODFRecalcMode', 'int', '1'],
  // Network: a manual proxy that is a closed loopback port, for whatever tries to fetch anyway
  // (the network namespace, where the machine allows one, already leaves nothing to reach).
  ['/org.openoffice.Inet/Settings', 'ooInetProxyType', 'int', '1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyName', 'string', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyPort', 'int', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyName', 'string', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyPort', 'int', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyName', 'string', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyPort', 'int', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', 'string', ''],
  // No first-run dialogs, update checks, crash reports or OpenCL probing in a headless service.
  ['/org.openoffice.Office.Common/Misc', 'FirstRun', 'boolean', 'false'],
  ['/org.openoffice.Office.Common/Misc', 'UseOpenCL', 'boolean', 'false'],
  ['/org.openoffice.Office.Common/Misc', 'CrashReport', 'boolean', 'false'],
  ['/org.openoffice.Office.Jobs/Jobs/UpdateCheck/Arguments', 'AutoCheckEnabled', 'boolean', 'false'],
  ['/org.openoffice.Office.Common/Save/Document', 'CreateBackup', 'boolean', 'false'],
];

/** Creates the profile folder with our settings; LibreOffice fills in the rest on first start. */
export async function writeOfficeProfile(dir: string): Promise<void> {
  const user = path.join(dir, 'user');
  await mkdir(user, { recursive: true });
  const items = SETTINGS.map(([at, name, , value]) => `<item oor:path="${at}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`);
  const xcu = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    ...items,
    '</oor:items>',
    '',
  ].join('\n');
  await writeFile(path.join(user, 'registrymodifications.xcu'), xcu, { mode: 0o600 });
}
