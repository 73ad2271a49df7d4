-- Signing certificates (issue 32): the public facts as columns for listing, the whole record
-- (with the private key sealed under the operator's master key, never in the clear) as jsonb.
CREATE TABLE certificates (
  id text PRIMARY KEY,
  owner_key_id text,
  created_at timestamptz NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX certificates_owner ON certificates (owner_key_id);
