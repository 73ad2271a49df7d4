-- GET /admin/v1/keys pages live keys newest first (stores/pg/keys.ts, same cursor as the files).
CREATE INDEX api_keys_live ON api_keys (created_at DESC, id COLLATE "C" DESC) WHERE key_hash IS NOT NULL;
