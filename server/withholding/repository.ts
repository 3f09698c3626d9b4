/**
 * Withholding certificates' SQL (migration 702_withholding_certificates.sql). Every function takes
 * the caller's Queryable; the service runs the changes inside one transaction with the order row
 * locked.
 */
import type { Queryable } from '../db/index';

export type CertificateStatus = 'submitted' | 'received' | 'rejected' | 'replaced';

export interface CertificateRow {
  id: number;
  order_id: number;
  user_id: number;
  file_name: string;
  original_name: string;
  mime: string;
  size: number;
  status: CertificateStatus;
  uploaded_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  reason: string | null;
}

export type NewCertificate = Pick<CertificateRow, 'order_id' | 'user_id' | 'file_name' | 'original_name' | 'mime' | 'size' | 'uploaded_at'>;

/** The order's latest certificate (any status), or null when none was ever uploaded. */
export async function latestCertificate(q: Queryable, orderId: number): Promise<CertificateRow | null> {
  return (await q.query<CertificateRow>('SELECT * FROM withholding_certificates WHERE order_id = $1 ORDER BY id DESC LIMIT 1', [orderId])).rows[0] ?? null;
}

/** The latest certificate of each of these orders. */
export async function latestCertificates(q: Queryable, orderIds: readonly number[]): Promise<CertificateRow[]> {
  if (orderIds.length === 0) return [];
  return (
    await q.query<CertificateRow>('SELECT DISTINCT ON (order_id) * FROM withholding_certificates WHERE order_id = ANY($1::int[]) ORDER BY order_id, id DESC', [orderIds])
  ).rows;
}

export async function findCertificate(q: Queryable, id: number, opts: { forUpdate?: boolean } = {}): Promise<CertificateRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  return (await q.query<CertificateRow>(`SELECT * FROM withholding_certificates WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [id])).rows[0] ?? null;
}

/** A waiting certificate gives way to a newer upload. */
export async function markReplaced(q: Queryable, orderId: number): Promise<void> {
  await q.query("UPDATE withholding_certificates SET status = 'replaced' WHERE order_id = $1 AND status = 'submitted'", [orderId]);
}

export async function insertCertificate(q: Queryable, c: NewCertificate): Promise<CertificateRow> {
  return (
    await q.query<CertificateRow>(
      'INSERT INTO withholding_certificates (order_id, user_id, file_name, original_name, mime, size, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
      [c.order_id, c.user_id, c.file_name, c.original_name, c.mime, c.size, c.uploaded_at],
    )
  ).rows[0]!;
}

/** The shop's decision on a waiting certificate; null when it no longer waits. */
export async function decideCertificate(q: Queryable, id: number, d: { status: 'received' | 'rejected'; at: Date; by: string; reason: string | null }): Promise<CertificateRow | null> {
  return (
    await q.query<CertificateRow>(
      "UPDATE withholding_certificates SET status = $2, decided_at = $3, decided_by = $4, reason = $5 WHERE id = $1 AND status = 'submitted' RETURNING *",
      [id, d.status, d.at, d.by, d.reason],
    )
  ).rows[0] ?? null;
}

export interface CertificateListRow extends CertificateRow {
  currency_code: 'THB' | 'USD';
  withholding_price: number;
  total: number;
  email: string | null;
}

/** The back office's list: newest first, optionally one status (replaced ones are left out unless asked for). */
export async function listCertificates(q: Queryable, opts: { status?: CertificateStatus; limit: number }): Promise<CertificateListRow[]> {
  return (
    await q.query<CertificateListRow>(
      `SELECT c.*, o.currency_code, o.withholding_price, o.total, u.email
         FROM withholding_certificates c JOIN orders o ON o.id = c.order_id JOIN users u ON u.id = c.user_id
        WHERE ${opts.status ? 'c.status = $2' : "c.status <> 'replaced'"}
        ORDER BY c.id DESC LIMIT $1`,
      opts.status ? [opts.limit, opts.status] : [opts.limit],
    )
  ).rows;
}
