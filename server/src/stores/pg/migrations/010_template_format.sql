-- A template's text may be Markdown (stores/templates.ts TemplateFormat); what was saved before is HTML.
ALTER TABLE templates ADD COLUMN format text NOT NULL DEFAULT 'html' CHECK (format IN ('html', 'markdown'));
ALTER TABLE template_versions ADD COLUMN format text NOT NULL DEFAULT 'html' CHECK (format IN ('html', 'markdown'));
