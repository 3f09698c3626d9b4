-- Issue 15 (platform hardening): idle session limit, login failures shared by every server
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
