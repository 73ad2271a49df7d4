// The Markdown worker thread's entry (services/markdown/convert.ts): turns Markdown into HTML off the
// server's event loop, one text at a time.

import { serveTasks } from '../../worker-pool.ts';
import { markdownToHtml } from './markdown.ts';
import type { MarkdownTask } from './convert.ts';

serveTasks<MarkdownTask, string>(({ markdown, style }) => markdownToHtml(markdown, style));
