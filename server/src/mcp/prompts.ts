// The prompts an assistant offers its user: "make a PDF from this Markdown with our letterhead
// template". A prompt is only text for the model; the tools do the work, under the key's limits.

import { McpError, ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export const LETTERHEAD_PROMPT: Prompt = {
  name: 'letterhead_pdf',
  title: 'Markdown to PDF on our letterhead',
  description: 'Make a PDF from this Markdown with our letterhead template.',
  arguments: [
    { name: 'markdown', description: 'The text of the document, in Markdown.', required: true },
    { name: 'template', description: 'The letterhead template’s id or name (default: the template whose name says letterhead).', required: false },
  ],
};

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  if (name !== LETTERHEAD_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${name}; this server has ${LETTERHEAD_PROMPT.name}.`);
  const markdown = args?.markdown;
  if (!markdown) throw new McpError(ErrorCode.InvalidParams, 'letterhead_pdf needs the markdown argument.');
  const which = args?.template ? `the template "${args.template}"` : 'our letterhead template (the one whose name says letterhead)';
  return {
    description: LETTERHEAD_PROMPT.description,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Make a PDF from the Markdown below with ${which}, using the Quire tools:\n` +
            '1. list_templates, and pick the template; get_template shows its format, sample data and placeholders.\n' +
            '2. Fill its data like the sample data, with the Markdown in the placeholder meant for the body. A Markdown template reads a ' +
            '{{{raw}}} value as Markdown; for an HTML template, turn the Markdown into HTML first and use its {{{raw}}} placeholder.\n' +
            '3. render_template with that data (it is charged as one document), then tell me the page count and where the PDF is.\n\n' +
            `Markdown:\n\n${markdown}`,
        },
      },
    ],
  };
}
