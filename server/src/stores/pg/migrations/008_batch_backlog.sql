-- The background batch backlog (BATCH_QUEUE_*) counted over every instance from the batches
-- table (stores/pg/batches.ts): a background batch's items and the bytes of its requests as the
-- caps count them (their JSON as the server wrote it), summed over those not yet completed.
ALTER TABLE batches
  ADD COLUMN mode          text NOT NULL DEFAULT 'async',
  ADD COLUMN item_count    integer NOT NULL DEFAULT 0,
  ADD COLUMN request_bytes bigint NOT NULL DEFAULT 0;
UPDATE batches SET mode = record->>'mode', item_count = jsonb_array_length(record->'items'),
  request_bytes = coalesce(octet_length(requests::text), 0);
CREATE INDEX batches_backlog ON batches (key_id) WHERE mode = 'async' AND status <> 'completed';
