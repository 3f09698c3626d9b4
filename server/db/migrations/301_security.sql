-- Platform hardening: idle session limit, login failures shared by every server
-- process, back-office sessions, upload tokens of the layout-4 registration.

ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;

-- Failed logins per scope, counted in a fixed window (server/auth/limits.ts): 'account' (the
-- name tried), 'address' (client IP), 'pair' (account + address); 'known' marks an account +
-- address that logged in successfully (window_start = last success). Keys are SHA-256 hashes.
CREATE TABLE login_failures (
  scope text NOT NULL,
  key text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  window_start timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);

-- Back-office sessions (cookie `admin_sid`, SameSite=Strict): only hashes are stored.
CREATE TABLE admin_sessions (
  id_hash text PRIMARY KEY,
  csrf text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Upload tokens of the layout-4 registration (a visitor without an account; cookie `upl`).
CREATE TABLE upload_tokens (
  id_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
-- Each upload is counted against its student or its upload token.
ALTER TABLE uploads ADD COLUMN upload_token text;
CREATE INDEX uploads_user_idx ON uploads (user_id, created_at);
CREATE INDEX uploads_token_idx ON uploads (upload_token, created_at);
