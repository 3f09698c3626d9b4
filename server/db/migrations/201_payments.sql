-- Payments: provider payment attempts, payment reports, provider events (idempotency).
-- Money: bigint minor units. Times: timestamptz (UTC); report times arrive as Thai local time and
-- are converted at the API edge.

-- One row per attempt with a provider (an Omise charge, an SCB QR, a 2C2P invoice, a PayPal order…).
CREATE TABLE payments (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('omise', 'scb', '2c2p', 'gbprime', 'paysolutions', 'paypal')),
  method_id integer NOT NULL,
  -- The provider's id for this attempt: charge id, ref1/ref2, invoice no, referenceNo, refno, PayPal order id.
  provider_ref text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'successful', 'failed', 'expired', 'cancelled')),
  amount bigint NOT NULL,                 -- OUR total when the attempt was made
  currency text NOT NULL CHECK (currency IN ('THB', 'USD')),
  paid_amount bigint,                     -- what the provider reports as paid (verified)
  provider_txn_id text,                   -- transaction / capture id
  failure_code text,
  failure_message text,
  authorize_uri text,
  expires_at timestamptz,
  -- Needs a person: amount_mismatch, late_payment (paid after our expiry), order_closed (paid but the order could not be approved).
  attention text,
  order_payment_id integer,               -- the payment report filed for it
  details jsonb NOT NULL DEFAULT '{}'::jsonb, -- provider facts (never card numbers, never secrets)
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_ref)
);
CREATE INDEX payments_order_idx ON payments (order_id);
CREATE INDEX payments_attention_idx ON payments (attention) WHERE attention IS NOT NULL;

-- The spec's payment report (order payment): bank-transfer notices, free orders, provider payments.
CREATE TABLE payment_reports (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  payment_method_id integer,
  payment text NOT NULL,                  -- label: BankTransfer, AutoFree, NeedApprovedFree, Paypal, Omise, SCB, 2C2P, GBPrimePay, PaySolutions
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  contact_name text,
  email text,
  tel text,
  bank_code text,
  bank_account text,
  transfer_at timestamptz,                -- UTC (the API takes Thai local date + time)
  transfer_amount bigint NOT NULL DEFAULT 0,
  description text,
  address text,
  slip text,
  payment_id integer REFERENCES payments(id) ON DELETE SET NULL,
  decided_by text,
  decided_at timestamptz,
  reject_reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_reports_order_idx ON payment_reports (order_id);
CREATE INDEX payment_reports_pending_idx ON payment_reports (created_at) WHERE status = 'pending';
CREATE UNIQUE INDEX payment_reports_payment_key ON payment_reports (payment_id) WHERE payment_id IS NOT NULL;

-- Every callback / webhook / return applied, by the provider's event id: inserted first, in the
-- same transaction as its effect, so a delivery is applied at most once.
CREATE TABLE provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  kind text NOT NULL,
  order_id integer,
  payment_id integer,
  outcome text,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
