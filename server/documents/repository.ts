/**
 * Documents' SQL (migration 701_documents.sql). Every function takes the caller's Queryable; the
 * numbering one must run inside the transaction that issues the document.
 */
import type { Queryable } from '../db/index';
import type { DocumentKind } from '../../domain/documents';
import type { DocumentPayload } from './payload';

export interface DocumentRow {
  id: number;
  kind: DocumentKind;
  year: number;
  seq: number;
  number: string;
  order_id: number;
  user_id: number;
  currency: 'THB' | 'USD';
  amount: number;
  issued_at: Date;
  payload: DocumentPayload;
  credits_document_id: number | null;
  refund_id: number | null;
  cancelled_by_id: number | null;
  sent_count: number;
  last_sent_at: Date | null;
}

/**
 * The next number of a kind and year. The upsert takes the counter row's lock and keeps it until
 * the transaction ends, so concurrent issuers queue here and a rolled-back issue returns its number:
 * no gaps, no doubles.
 */
export async function nextSequence(q: Queryable, kind: DocumentKind, year: number): Promise<number> {
  const r = await q.query<{ last: number }>(
    `INSERT INTO document_counters (kind, year, last) VALUES ($1, $2, 1)
     ON CONFLICT (kind, year) DO UPDATE SET last = document_counters.last + 1
     RETURNING last`,
    [kind, year],
  );
  return Number(r.rows[0]!.last);
}

export type NewDocument = Pick<DocumentRow, 'kind' | 'year' | 'seq' | 'number' | 'order_id' | 'user_id' | 'currency' | 'amount' | 'issued_at' | 'payload' | 'credits_document_id' | 'refund_id'>;

export async function insertDocument(q: Queryable, d: NewDocument): Promise<DocumentRow> {
  const r = await q.query<DocumentRow>(
    `INSERT INTO documents (kind, year, seq, number, order_id, user_id, currency, amount, issued_at, payload, credits_document_id, refund_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
    [d.kind, d.year, d.seq, d.number, d.order_id, d.user_id, d.currency, d.amount, d.issued_at, JSON.stringify(d.payload), d.credits_document_id, d.refund_id],
  );
  return r.rows[0]!;
}

export async function documentsOfOrder(q: Queryable, orderId: number): Promise<DocumentRow[]> {
  return (await q.query<DocumentRow>('SELECT * FROM documents WHERE order_id = $1 ORDER BY id', [orderId])).rows;
}

export async function findDocument(q: Queryable, id: number): Promise<DocumentRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  return (await q.query<DocumentRow>('SELECT * FROM documents WHERE id = $1', [id])).rows[0] ?? null;
}

/** The order's live (not cancelled) document of a kind. */
export async function liveDocument(q: Queryable, orderId: number, kind: Exclude<DocumentKind, 'credit_note'>): Promise<DocumentRow | null> {
  return (await q.query<DocumentRow>('SELECT * FROM documents WHERE order_id = $1 AND kind = $2 AND cancelled_by_id IS NULL', [orderId, kind])).rows[0] ?? null;
}

export async function markCancelled(q: Queryable, id: number, byId: number): Promise<void> {
  await q.query('UPDATE documents SET cancelled_by_id = $2 WHERE id = $1 AND cancelled_by_id IS NULL', [id, byId]);
}

export async function creditNoteOfRefund(q: Queryable, refundId: number): Promise<DocumentRow | null> {
  return (await q.query<DocumentRow>('SELECT * FROM documents WHERE refund_id = $1', [refundId])).rows[0] ?? null;
}

export async function markSent(q: Queryable, id: number, at: Date): Promise<DocumentRow | null> {
  return (await q.query<DocumentRow>('UPDATE documents SET sent_count = sent_count + 1, last_sent_at = $2 WHERE id = $1 RETURNING *', [id, at])).rows[0] ?? null;
}

/** The back office's list: newest first, optionally one kind, keyset-paged by id. */
export async function listDocuments(q: Queryable, opts: { kind?: DocumentKind; beforeId?: number; limit: number }): Promise<DocumentRow[]> {
  const params: unknown[] = [opts.limit];
  const where: string[] = [];
  if (opts.kind) {
    params.push(opts.kind);
    where.push(`kind = $${params.length}`);
  }
  if (opts.beforeId) {
    params.push(opts.beforeId);
    where.push(`id < $${params.length}`);
  }
  return (await q.query<DocumentRow>(`SELECT * FROM documents ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $1`, params)).rows;
}
