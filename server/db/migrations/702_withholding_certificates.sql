-- The buyer's withholding certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย, "50 ทวิ"): a juristic
-- buyer who withheld tax from a paid order uploads the certificate it issued to the shop
-- (server/withholding/); the back office marks it received, or rejects it with a reason (the buyer
-- then uploads another). A new upload while one waits replaces it; nothing is uploaded once one
-- was received. The file itself is an upload (uploads.file_name), counted in the buyer's storage share.
CREATE TABLE withholding_certificates (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id),
  user_id integer NOT NULL REFERENCES users(id),
  file_name text NOT NULL,
  original_name text NOT NULL,
  mime text NOT NULL,
  size bigint NOT NULL,
  -- submitted: waits for the shop; received / rejected: the shop's decision; replaced: a newer upload took its place.
  status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'received', 'rejected', 'replaced')),
  uploaded_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  reason text,
  CHECK ((status = 'rejected') = (reason IS NOT NULL)),
  CHECK ((status IN ('received', 'rejected')) = (decided_at IS NOT NULL))
);
-- One certificate at a time per order: the one waiting or the one received.
CREATE UNIQUE INDEX withholding_certificates_live_key ON withholding_certificates (order_id) WHERE status IN ('submitted', 'received');
CREATE INDEX withholding_certificates_order_idx ON withholding_certificates (order_id, id);
CREATE INDEX withholding_certificates_status_idx ON withholding_certificates (status, id);
