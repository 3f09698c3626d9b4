-- Receipts, full tax invoices and credit notes (server/documents/): states of an order, issued in
-- the transaction that marks the order paid (server/orders/service.ts approveOrderPayment) or
-- records a refund (server/payments/refunds.ts). Never edited after issue: a correction is a
-- credit note plus a new invoice (the triggers below refuse an UPDATE of what was issued and any
-- DELETE).

-- One gap-free sequence per document kind and calendar year (Asia/Bangkok). The next number is
-- taken with `INSERT … ON CONFLICT DO UPDATE SET last = last + 1 RETURNING last`, which holds the
-- counter row's lock until the issuing transaction ends: a second payment waits, a rolled-back one
-- gives its number back.
CREATE TABLE document_counters (
  kind text NOT NULL CHECK (kind IN ('receipt', 'tax_invoice', 'credit_note')),
  year integer NOT NULL,
  last integer NOT NULL,
  PRIMARY KEY (kind, year)
);

CREATE TABLE documents (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('receipt', 'tax_invoice', 'credit_note')),
  year integer NOT NULL,
  seq integer NOT NULL CHECK (seq > 0),
  number text NOT NULL UNIQUE,
  order_id integer NOT NULL REFERENCES orders(id),
  user_id integer NOT NULL REFERENCES users(id),
  currency text NOT NULL CHECK (currency IN ('THB', 'USD')),
  amount bigint NOT NULL,                       -- minor units: the grand total, or the amount credited
  issued_at timestamptz NOT NULL,
  -- Everything printed on the document, frozen at issue (seller, buyer, lines, amounts).
  payload jsonb NOT NULL,
  -- A credit note: the document it reduces, and the refund it answers (when one).
  credits_document_id integer REFERENCES documents(id),
  refund_id integer REFERENCES refunds(id),
  -- A document replaced by a credit note (+ a new invoice) stays, marked.
  cancelled_by_id integer REFERENCES documents(id),
  sent_count integer NOT NULL DEFAULT 0,
  last_sent_at timestamptz,
  UNIQUE (kind, year, seq),
  CHECK ((kind = 'credit_note') = (credits_document_id IS NOT NULL))
);
CREATE INDEX documents_order_idx ON documents (order_id, id);
CREATE INDEX documents_issued_idx ON documents (issued_at DESC, id DESC);
CREATE UNIQUE INDEX documents_refund_key ON documents (refund_id) WHERE refund_id IS NOT NULL;
-- One live (not cancelled) receipt and one live tax invoice per order.
CREATE UNIQUE INDEX documents_live_key ON documents (order_id, kind) WHERE kind <> 'credit_note' AND cancelled_by_id IS NULL;

CREATE FUNCTION documents_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'documents are never deleted (document %)', OLD.number;
  END IF;
  IF NEW.kind IS DISTINCT FROM OLD.kind OR NEW.number IS DISTINCT FROM OLD.number OR NEW.year IS DISTINCT FROM OLD.year
     OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.order_id IS DISTINCT FROM OLD.order_id OR NEW.amount IS DISTINCT FROM OLD.amount
     OR NEW.currency IS DISTINCT FROM OLD.currency OR NEW.issued_at IS DISTINCT FROM OLD.issued_at OR NEW.payload IS DISTINCT FROM OLD.payload
     OR NEW.credits_document_id IS DISTINCT FROM OLD.credits_document_id OR NEW.refund_id IS DISTINCT FROM OLD.refund_id
     OR (OLD.cancelled_by_id IS NOT NULL AND NEW.cancelled_by_id IS DISTINCT FROM OLD.cancelled_by_id) THEN
    RAISE EXCEPTION 'document % is issued: it is never edited (a correction is a credit note and a new invoice)', OLD.number;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER documents_frozen_update BEFORE UPDATE ON documents FOR EACH ROW EXECUTE FUNCTION documents_frozen();
CREATE TRIGGER documents_frozen_delete BEFORE DELETE ON documents FOR EACH ROW EXECUTE FUNCTION documents_frozen();
