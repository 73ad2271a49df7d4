-- Transform presets (stores/pg/presets.ts): a key's saved sequences of PDF steps.

CREATE TABLE pdf_presets (
  id          text PRIMARY KEY,
  key_id      text NOT NULL,
  name        text NOT NULL,
  steps       json NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX pdf_presets_key ON pdf_presets (key_id, created_at);
