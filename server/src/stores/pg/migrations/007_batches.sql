-- Batches shared by every instance (stores/pg/batches.ts). The row is the queue entry: an
-- instance works on a batch while it holds its lease (lease_owner, renewed by a heartbeat); a
-- batch with work left whose lease expired is adopted by another instance (FOR UPDATE SKIP
-- LOCKED, so two instances never adopt the same one). record is the batch with its items'
-- states (stores/batches.ts BatchRecord), written only by the lease holder.
CREATE TABLE batches (
  id                text PRIMARY KEY,
  key_id            text NOT NULL,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  status            text NOT NULL,
  webhook_pending   boolean NOT NULL DEFAULT false,
  record            jsonb NOT NULL,
  requests          jsonb,
  lease_owner       text,
  lease_expires_at  timestamptz
);
CREATE INDEX batches_by_key ON batches (key_id, created_at DESC, id COLLATE "C" DESC);
CREATE INDEX batches_all ON batches (created_at DESC, id COLLATE "C" DESC);
CREATE INDEX batches_with_work ON batches (created_at, id) WHERE status <> 'completed' OR webhook_pending;
CREATE INDEX batches_due ON batches (expires_at) WHERE status = 'completed' AND NOT webhook_pending;
