// Ready-to-copy calls: curl and JavaScript for a request body, with the key as a variable; curl for
// a multipart upload (office files).

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface SnippetInput {
  origin: string;
  path: string;
  body: unknown;
  /** Whether the call needs an API key (false for the playground). */
  keyed: boolean;
  output: string;
}

export function curlSnippet({ origin, path, body, keyed, output }: SnippetInput): string {
  const lines = [`curl -sS ${origin}${path}`];
  if (keyed) lines.push(`  -H "Authorization: Bearer $QUIRE_API_KEY"`);
  lines.push(`  -H 'Content-Type: application/json'`);
  lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  lines.push(`  -o ${output}`);
  return lines.join(' \\\n');
}

export function fetchSnippet({ origin, path, body, keyed, output }: SnippetInput): string {
  const headers = keyed
    ? `{\n    Authorization: \`Bearer \${process.env.QUIRE_API_KEY}\`,\n    'Content-Type': 'application/json',\n  }`
    : `{ 'Content-Type': 'application/json' }`;
  return [
    `import { writeFile } from 'node:fs/promises';`,
    ``,
    `const response = await fetch('${origin}${path}', {`,
    `  method: 'POST',`,
    `  headers: ${headers},`,
    `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`,
    `});`,
    `if (!response.ok) throw new Error((await response.json()).detail);`,
    `await writeFile('${output}', Buffer.from(await response.arrayBuffer()));`,
  ].join('\n');
}

export interface FormSnippetInput {
  origin: string;
  path: string;
  /** The name of the file sent as the part `file`. */
  filename: string;
  /** Text fields in order, each as the text its part carries. */
  fields: [name: string, value: string][];
  /** Further file parts, each as its part's name and the file's name (office attachments: "attachments"). */
  files?: [name: string, filename: string][];
  output: string;
}

/**
 * A multipart call with a key. A value curl -F would not send as it is (a leading @ or < reads a
 * file, a leading quote is unquoted, a ; starts ;type= and the like): --form-string, literally.
 */
export function curlFormSnippet({ origin, path, filename, fields, files = [], output }: FormSnippetInput): string {
  const lines = [`curl -sS ${origin}${path}`, `  -H "Authorization: Bearer $QUIRE_API_KEY"`, `  -F ${shellQuote(`file=@${filename}`)}`];
  for (const [name, file] of files) lines.push(`  -F ${shellQuote(`${name}=@${file}`)}`);
  for (const [name, value] of fields) lines.push(`  ${/^[@<"]|;/.test(value) ? '--form-string' : '-F'} ${shellQuote(`${name}=${value}`)}`);
  lines.push(`  -o ${shellQuote(output)}`);
  return lines.join(' \\\n');
}
