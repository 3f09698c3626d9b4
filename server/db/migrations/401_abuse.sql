-- Abuse limits (README "Security"): visitors' upload pool, unpaid-order caps per address, the
-- short hold on scarce things.

-- The address (SHA-256 of the client IP) a registration upload token was given to and an upload
-- came from: visitors' daily limits per address. Tokens are kept a day for that count.
ALTER TABLE upload_tokens ADD COLUMN address_hash text;
CREATE INDEX upload_tokens_address_idx ON upload_tokens (address_hash, created_at);
ALTER TABLE uploads ADD COLUMN address_hash text;
CREATE INDEX uploads_address_idx ON uploads (address_hash, created_at) WHERE upload_token IS NOT NULL;

-- The address an order was placed from (SHA-256 of the client IP): the unpaid-order cap per address.
ALTER TABLE orders ADD COLUMN address_hash text;
CREATE INDEX orders_unpaid_address_idx ON orders (address_hash, created_at) WHERE status IN ('notYetReceived', 'pendingApproved');
-- Until when an unpaid order holds its seats, stock and limited coupon uses (SCARCE_HOLD_MINUTES);
-- null = it holds nothing scarce. Past it, with no payment in progress, they go back on sale
-- (resources_released) while the order stays payable until cancel_at; paying takes them again.
ALTER TABLE orders ADD COLUMN hold_until timestamptz;
CREATE INDEX orders_hold_idx ON orders (hold_until) WHERE status = 'notYetReceived' AND NOT resources_released;
CREATE INDEX coupon_uses_user_idx ON coupon_uses (user_id, coupon_id);

-- Login challenges (server/auth/challenge.ts): a proof-of-work asked of logins to an account with
-- many recent failures, instead of locking it. Single use; only the SHA-256 of the challenge.
CREATE TABLE login_challenges (
  id_hash text PRIMARY KEY,
  realm text NOT NULL,
  account_key text NOT NULL,
  difficulty integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_challenges_expiry_idx ON login_challenges (expires_at);
