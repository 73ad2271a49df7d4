-- A template may be a Word file (stores/templates.ts TemplateFormat 'docx'): its text column holds the docx base64.
ALTER TABLE templates DROP CONSTRAINT IF EXISTS templates_format_check;
ALTER TABLE templates ADD CONSTRAINT templates_format_check CHECK (format IN ('html', 'markdown', 'docx'));
ALTER TABLE template_versions DROP CONSTRAINT IF EXISTS template_versions_format_check;
ALTER TABLE template_versions ADD CONSTRAINT template_versions_format_check CHECK (format IN ('html', 'markdown', 'docx'));
