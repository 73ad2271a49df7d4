-- API keys (stores/keys.ts KeyRecord) and monthly usage with its holds and charge tags
-- (accounts/usage.ts). A hold is one document reserved by a render in progress: `held` counts
-- them so that one conditional statement can check and take the allowance; each hold is also a
-- row, so the holds of an instance that died can be found and given back.

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  plan_id     text NOT NULL,
  auto_store  boolean NOT NULL,
  key_hash    text UNIQUE,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);

CREATE TABLE usage_months (
  key_id      text NOT NULL,
  month       text NOT NULL,
  used        integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  held        integer NOT NULL DEFAULT 0 CHECK (held >= 0),
  updated_at  timestamptz,
  PRIMARY KEY (key_id, month)
);

CREATE TABLE usage_holds (
  id          text PRIMARY KEY,
  key_id      text NOT NULL,
  month       text NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX usage_holds_expiry ON usage_holds (key_id, month, expires_at);

CREATE TABLE usage_charges (
  key_id      text NOT NULL,
  month       text NOT NULL,
  tag         text NOT NULL,
  PRIMARY KEY (key_id, tag)
);
