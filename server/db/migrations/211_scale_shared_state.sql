-- State several processes share on one PostgreSQL (PGlite creates the same tables).

-- Payloads of the socket.io PostgreSQL adapter over NOTIFY's 8000-byte limit (server/realtime.ts).
CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id bigserial UNIQUE,
  created_at timestamptz DEFAULT now(),
  payload bytea
);

-- The payment sandboxes' state (charges, sources, QR codes, tokens, hosted-page sessions of every
-- provider emulator): one row per record, so a restart or a second process loses nothing
-- (server/providers/sandbox/store.ts).
CREATE TABLE IF NOT EXISTS sandbox_records (
  provider text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, kind, id)
);
