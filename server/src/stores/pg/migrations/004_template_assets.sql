-- Files uploaded to a template (stores/template-assets.ts), bytes in the row.
CREATE TABLE template_assets (
  template_id   text NOT NULL,
  name          text NOT NULL,
  content_type  text NOT NULL,
  size          integer NOT NULL,
  updated_at    timestamptz NOT NULL,
  bytes         bytea NOT NULL,
  PRIMARY KEY (template_id, name)
);
