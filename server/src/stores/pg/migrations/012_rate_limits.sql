-- Sliding-window counts per client (the playground's per-address limit), shared by every
-- instance: hits holds the times (ms since the epoch) of the events still in the window, at most
-- the limit's length; last_at lets idle clients be swept.
CREATE TABLE rate_limits (
  client text PRIMARY KEY,
  hits bigint[] NOT NULL,
  allowed boolean NOT NULL,
  last_at bigint NOT NULL
);
CREATE INDEX rate_limits_last_at ON rate_limits (last_at);
