-- Render receipts (stores/pg/receipts.ts) and each key's receipt setting (stores/keys.ts
-- KeyRecord.receipts: 'stored', 'all' or 'off').

CREATE TABLE receipts (
  id          text PRIMARY KEY,
  key_id      text,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  body        json NOT NULL
);
CREATE INDEX receipts_expiry ON receipts (expires_at);

ALTER TABLE api_keys ADD COLUMN receipts text NOT NULL DEFAULT 'stored' CHECK (receipts IN ('stored', 'all', 'off'));
