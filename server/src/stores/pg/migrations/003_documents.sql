-- Stored documents (stores/documents.ts DocumentRecord) and their bytes in chunks
-- (stores/pg/pdf-blobs.ts). An expired document keeps its row as a tombstone (state 'expired').

CREATE TABLE documents (
  id          text PRIMARY KEY,
  key_id      text NOT NULL,
  filename    text,
  size        integer NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  source      text NOT NULL,
  batch_id    text,
  plan_id     text NOT NULL,
  retention   text NOT NULL,
  state       text NOT NULL CHECK (state IN ('stored', 'expired')),
  expired_at  timestamptz
);
CREATE INDEX documents_by_key ON documents (key_id, created_at DESC, id COLLATE "C" DESC) WHERE state = 'stored';
CREATE INDEX documents_all ON documents (created_at DESC, id COLLATE "C" DESC) WHERE state = 'stored';
CREATE INDEX documents_expiry ON documents (expires_at) WHERE state = 'stored';
CREATE INDEX documents_tombstones ON documents (expires_at) WHERE state = 'expired';

CREATE TABLE document_blobs (
  document_id text NOT NULL,
  seq         integer NOT NULL,
  data        bytea NOT NULL,
  PRIMARY KEY (document_id, seq)
);
-- Chunks are written once and read whole: keep them out of TOAST compression (PDFs are compressed already).
ALTER TABLE document_blobs ALTER COLUMN data SET STORAGE EXTERNAL;
