-- E-mail that cannot be aimed, and a way back in for a buyer without a password (server/mail.ts,
-- server/students/access-links.ts).

-- Every mail the shop sends, counted per recipient, per client address and per account, so the
-- limits hold across every server process on one PostgreSQL. `recipient` is the lower-cased address.
CREATE TABLE mail_log (
  id bigserial PRIMARY KEY,
  recipient text NOT NULL,
  address text,
  user_id integer,
  tag text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX mail_log_recipient_idx ON mail_log (recipient, created_at);
CREATE INDEX mail_log_address_idx ON mail_log (address, created_at);
CREATE INDEX mail_log_user_tag_idx ON mail_log (user_id, tag);

-- An address is verified when its owner opened a link the shop sent to it. Registration inserts
-- NULL; accounts made otherwise (the shop's seed, the back office, accounts older than this
-- migration) are taken as verified.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz DEFAULT now();

-- Sign-in links sent by e-mail (welcome mail, "send me a link"): only the SHA-256 of the token is
-- stored; the path it opens is the server's choice, never the buyer's text.
CREATE TABLE access_links (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  target text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX access_links_user_idx ON access_links (user_id, created_at);

-- One account per e-mail among students from now on (older duplicates are left as they are).
CREATE INDEX users_student_email_idx ON users (lower(email)) WHERE role = 'student';
