-- Immutable versions of templates (stores/template-versions.ts) with their reference rendering.
CREATE TABLE template_versions (
  template_id  text NOT NULL,
  number       integer NOT NULL,
  name         text NOT NULL,
  html         text NOT NULL,
  sample_data  jsonb,
  created_at   timestamptz NOT NULL,
  created_by   text NOT NULL,
  reference    bytea,
  PRIMARY KEY (template_id, number)
);
