-- Refunds (server/payments/refunds.ts): money given back for a payment the shop keeps no order
-- for — a second success on an already paid order (payments.attention 'duplicate_payment'), a
-- payment for an order that was cancelled or rejected. One live refund per payment or report:
-- a repeated or raced request finds the row the first one made (unique keys below) and the
-- provider call carries the same idempotency key (PayPal-Request-Id; Omise refund metadata).
CREATE TABLE refunds (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  -- A provider payment (payments row), or a bank-transfer notice (payment_reports row).
  payment_id integer REFERENCES payments(id) ON DELETE CASCADE,
  report_id integer REFERENCES payment_reports(id) ON DELETE CASCADE,
  provider text NOT NULL,                 -- omise, paypal, scb, ..., or bank_transfer
  -- api: through the provider's refund call; manual: a person refunded outside, the shop records it.
  kind text NOT NULL CHECK (kind IN ('api', 'manual')),
  status text NOT NULL CHECK (status IN ('requested', 'refunded', 'failed')),
  amount bigint NOT NULL,                 -- minor units
  currency text NOT NULL CHECK (currency IN ('THB', 'USD')),
  reason text NOT NULL,                   -- duplicate_payment, order_closed, order_cancelled, amount_mismatch, late_payment
  idempotency_key text NOT NULL UNIQUE,
  provider_refund_id text,
  requested_by text NOT NULL,
  note text,
  failure text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((payment_id IS NOT NULL) <> (report_id IS NOT NULL))
);
CREATE INDEX refunds_order_idx ON refunds (order_id);
CREATE UNIQUE INDEX refunds_payment_live_key ON refunds (payment_id) WHERE payment_id IS NOT NULL AND status <> 'failed';
CREATE UNIQUE INDEX refunds_report_live_key ON refunds (report_id) WHERE report_id IS NOT NULL AND status <> 'failed';
CREATE UNIQUE INDEX refunds_provider_refund_key ON refunds (provider, provider_refund_id) WHERE provider_refund_id IS NOT NULL;

-- The scheduled re-read of pending attempts (server/payments/reread.ts): when each was last asked.
ALTER TABLE payments ADD COLUMN reread_at timestamptz;
CREATE INDEX payments_pending_reread_idx ON payments (reread_at NULLS FIRST, id) WHERE status = 'pending';
