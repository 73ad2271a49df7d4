-- Stored templates (stores/templates.ts TemplateRecord). revision changes on every save, so an
-- instance can tell whether the template it parsed earlier is still the current one.

CREATE SEQUENCE template_revisions;

CREATE TABLE templates (
  id           text PRIMARY KEY,
  key_id       text NOT NULL,
  name         text NOT NULL,
  html         text NOT NULL,
  sample_data  jsonb,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  revision     bigint NOT NULL DEFAULT nextval('template_revisions')
);
-- Newest-first pages, per key and across keys; ids compare byte-wise as the cursor expects.
CREATE INDEX templates_by_key ON templates (key_id, created_at DESC, id COLLATE "C" DESC);
CREATE INDEX templates_all ON templates (created_at DESC, id COLLATE "C" DESC);
