/**
 * Issuing documents. Called inside the transaction that changes the order or records the refund,
 * with that transaction's Queryable, so the order's state and its documents commit together:
 *
 *  - `issueForPaidOrder` from the order service's approveOrderPayment (every path that marks an
 *    order paid goes through it): a receipt, and a full tax invoice when the buyer asked for one.
 *  - `creditNoteForRefund` from server/payments/refunds.ts when a refund is recorded as refunded:
 *    a credit note against the order's tax invoice (else its receipt) for money that document
 *    covered.
 *  - `correctDocument` from the back office: a full credit note, then a new document of the same
 *    kind with today's buyer details. Issued documents are never edited.
 *
 * Numbers come from `nextSequence` (one counter row per kind and Bangkok year, locked until the
 * transaction ends). Lock order: order row (the caller's), then counter rows in the order
 * receipt → tax_invoice → credit_note, so two issuers never wait on each other in a cycle.
 */
import type { Queryable } from '../db/index';
import {
  bangkokDate,
  bangkokYear,
  buyerParty,
  creditAmounts,
  documentAmounts,
  documentNumber,
  documentsForPaidOrder,
  refundNeedsCreditNote,
  sellerProblems,
  type DocumentKind,
} from '../../domain/documents';
import { findOrder, orderCourses, type OrderRow } from '../orders/repository';
import { findUser } from '../repos/users';
import type { DocumentPayload } from './payload';
import { insertDocument, liveDocument, markCancelled, nextSequence, creditNoteOfRefund, findDocument, type DocumentRow } from './repository';
import { loadDocumentSettings, sellerOf, type SettingsWithSeller } from './settings';

export interface IssueLog {
  warn(obj: object, msg: string): void;
}
const silent: IssueLog = { warn: () => undefined };

export class DocumentRefused extends Error {
  readonly status: 404 | 409;
  constructor(status: 404 | 409, message: string) {
    super(message);
    this.status = status;
    this.name = 'DocumentRefused';
  }
}

async function methodName(q: Queryable, id: number | null): Promise<string | null> {
  if (id === null) return null;
  return (await q.query<{ name: string }>('SELECT name FROM payment_methods WHERE id = $1', [id])).rows[0]?.name ?? null;
}

interface Basis {
  order: OrderRow;
  settings: SettingsWithSeller;
  payloadBase: Omit<DocumentPayload, 'kind' | 'number' | 'issued_at' | 'date' | 'buyer' | 'credit' | 'replaces'>;
  buyerWith: (taxData: boolean) => DocumentPayload['buyer'];
}

async function basis(q: Queryable, order: OrderRow, log: IssueLog): Promise<Basis> {
  const settings = await loadDocumentSettings(q);
  const lines = await orderCourses(q, order.id);
  const amounts = documentAmounts(
    {
      currency: order.currency_code,
      lines: lines.map((l) => ({ name: l.pricingplan_name ? `${l.course_name} (${l.pricingplan_name})` : l.course_name, qty: l.qty, original_pricing_price: l.original_pricing_price, discount: l.discount, price: l.price })),
      price: order.price,
      discount: order.discount,
      shipping_fee: order.shipping_fee,
      vat_price: order.vat_price,
      withholding_price: order.withholding_price,
      withholding_percent: order.withholding_percent === null ? null : Number(order.withholding_percent),
      total: order.total,
    },
    settings,
  );
  if (amounts.mismatches.length > 0) log.warn({ orderId: order.id, mismatches: amounts.mismatches }, 'document amounts: the order keeps its own figures');
  const user = await findUser(q, order.user_id);
  const account = { firstname: user?.firstname ?? '', lastname: user?.lastname ?? '', email: order.email ?? user?.email ?? null, address: user?.address ?? null };
  return {
    order,
    settings,
    payloadBase: {
      version: 1,
      order: { id: order.id, created_at: new Date(order.created_at).toISOString(), paid_at: order.approved_at ? new Date(order.approved_at).toISOString() : null, payment_method: await methodName(q, order.payment_method_id) },
      seller: sellerOf(settings),
      amounts,
    },
    buyerWith: (taxData) => buyerParty(user ?? {}, account, taxData),
  };
}

async function issue(q: Queryable, b: Basis, kind: DocumentKind, now: Date, extra: Pick<DocumentPayload, 'credit' | 'replaces'> & { refundId?: number | null; amount: number; creditsId?: number | null; buyer?: DocumentPayload['buyer'] }): Promise<DocumentRow> {
  const year = bangkokYear(now);
  const seq = await nextSequence(q, kind, year);
  const number = documentNumber(kind, year, seq);
  const payload: DocumentPayload = {
    ...b.payloadBase,
    kind,
    number,
    issued_at: now.toISOString(),
    date: bangkokDate(now),
    buyer: extra.buyer ?? b.buyerWith(kind === 'tax_invoice' || b.order.is_require_tax_invoice),
    credit: extra.credit,
    replaces: extra.replaces,
  };
  return insertDocument(q, {
    kind,
    year,
    seq,
    number,
    order_id: b.order.id,
    user_id: b.order.user_id,
    currency: b.order.currency_code,
    amount: extra.amount,
    issued_at: now,
    payload,
    credits_document_id: extra.creditsId ?? null,
    refund_id: extra.refundId ?? null,
  });
}

/**
 * The documents of an order that has just been marked paid (the caller holds the order's row lock).
 * Idempotent: a kind already issued (live) is not issued again. An unpaid, cancelled or rejected
 * order gets nothing. A tax invoice needs the seller's details: while they are incomplete (a
 * development shop without them) it is not issued and a warning is logged; production refuses to
 * start in that state.
 */
export async function issueForPaidOrder(q: Queryable, orderId: number, now: Date, log: IssueLog = silent): Promise<DocumentRow[]> {
  const order = await findOrder(q, orderId);
  if (!order || order.status !== 'approved') return [];
  const b = await basis(q, order, log);
  const kinds = documentsForPaidOrder({ grand_total: b.payloadBase.amounts.grand_total, is_require_tax_invoice: order.is_require_tax_invoice, tax_invoice_enabled: b.settings.is_enable_tax_invoice });
  const out: DocumentRow[] = [];
  for (const kind of kinds) {
    if (kind === 'credit_note') continue;
    if (await liveDocument(q, order.id, kind)) continue;
    if (kind === 'tax_invoice') {
      const missing = sellerProblems(b.payloadBase.seller);
      if (missing.length > 0) {
        log.warn({ orderId: order.id, missing }, 'tax invoice not issued: the seller settings are incomplete');
        continue;
      }
    }
    out.push(await issue(q, b, kind, now, { credit: null, replaces: null, amount: b.payloadBase.amounts.grand_total }));
  }
  return out;
}

/** The document a credit for this order reduces: its live tax invoice, else its live receipt. */
async function creditTarget(q: Queryable, orderId: number): Promise<DocumentRow | null> {
  return (await liveDocument(q, orderId, 'tax_invoice')) ?? (await liveDocument(q, orderId, 'receipt'));
}

async function creditNote(q: Queryable, target: DocumentRow, amount: number, reason: string, now: Date, refundId: number | null, log: IssueLog): Promise<DocumentRow> {
  const order = await findOrder(q, target.order_id);
  if (!order) throw new DocumentRefused(404, `order ${target.order_id} not found`);
  const b = await basis(q, order, log);
  const credited = Math.min(amount, target.amount);
  const amounts = creditAmounts(target.payload.amounts, credited, b.settings);
  return issue(q, { ...b, payloadBase: { ...b.payloadBase, seller: target.payload.seller, amounts: target.payload.amounts } }, 'credit_note', now, {
    credit: { document_id: target.id, document_number: target.number, document_kind: target.kind, document_date: target.payload.date, reason, amounts },
    replaces: null,
    amount: credited,
    creditsId: target.id,
    refundId,
    buyer: target.payload.buyer,
  });
}

/**
 * A refund recorded as refunded: a credit note for the money an issued document covered. None for
 * a refund of money no document counted (a duplicate payment, a payment for an order that was
 * never paid) or when the order has no live document. Idempotent per refund.
 */
export async function creditNoteForRefund(q: Queryable, refund: { id: number; order_id: number; amount: number; reason: string; status: string }, now: Date, log: IssueLog = silent): Promise<DocumentRow | null> {
  if (refund.status !== 'refunded') return null;
  const existing = await creditNoteOfRefund(q, refund.id);
  if (existing) return existing;
  const target = await creditTarget(q, refund.order_id);
  if (!refundNeedsCreditNote(refund.reason, target !== null) || !target) return null;
  // Giving back all the money received (a buyer who withheld tax paid less than the document's
  // total) cancels the whole document: the credit note is for its full value.
  const amount = refund.amount >= target.payload.amounts.received ? target.amount : refund.amount;
  return creditNote(q, target, amount, refund.reason, now, refund.id, log);
}

/**
 * Corrects an issued receipt or tax invoice: a credit note for its whole amount, the document
 * marked as replaced, and a new one of the same kind with the buyer's current details and the
 * order's amounts. Runs under the order's row lock.
 */
export async function correctDocument(q: Queryable, documentId: number, reason: string, now: Date, log: IssueLog = silent): Promise<{ credit_note: DocumentRow; document: DocumentRow }> {
  const doc = await findDocument(q, documentId);
  if (!doc) throw new DocumentRefused(404, `document ${documentId} not found`);
  if (doc.kind === 'credit_note') throw new DocumentRefused(409, `document ${doc.number} is a credit note: it is not replaced`);
  const order = await findOrder(q, doc.order_id, { forUpdate: true });
  if (!order || order.status !== 'approved') throw new DocumentRefused(409, `order ${doc.order_id} is not paid`);
  const locked = (await q.query<DocumentRow>('SELECT * FROM documents WHERE id = $1 FOR UPDATE', [doc.id])).rows[0]!;
  if (locked.cancelled_by_id !== null) throw new DocumentRefused(409, `document ${doc.number} was already replaced`);
  const cn = await creditNote(q, locked, locked.amount, reason || 'correction', now, null, log);
  await markCancelled(q, locked.id, cn.id);
  const b = await basis(q, order, log);
  const next = await issue(q, b, locked.kind, now, { credit: null, replaces: { document_id: locked.id, document_number: locked.number }, amount: b.payloadBase.amounts.grand_total });
  return { credit_note: cn, document: next };
}
