/**
 * The buyer's withholding certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย, "50 ทวิ"): a juristic
 * buyer that withheld tax from a paid order sends the shop the certificate it issued, and the shop
 * records it received (or rejects it with a reason, and the buyer sends another).
 *
 * Rules (owner only; another student's order reads as unknown, 404):
 *   - the order must be paid (409 WITHHOLDING_ORDER_NOT_PAID),
 *   - the buyer must have withheld tax from it (409 WITHHOLDING_NOT_WITHHELD),
 *   - no certificate may be received already (409 WITHHOLDING_CERTIFICATE_RECEIVED);
 *   a new upload while one waits for the shop replaces it.
 * The file is stored like every upload (server/storage/uploads.ts: the shop's storage, the
 * student's share, the rate limit); the route reads and checks it.
 */
import type { AppContext } from '../context';
import type { Queryable } from '../db/index';
import { afterCommit } from '../db/index';
import { ApiError } from '../errors';
import { MSG } from '../../domain/messages';
import type { components } from '../../generated/api';
import { findOrder, type OrderRow } from '../orders/repository';
import { storeUpload, type CheckedFile } from '../storage/uploads';
import { decideCertificate, findCertificate, insertCertificate, latestCertificate, latestCertificates, listCertificates, markReplaced, type CertificateListRow, type CertificateRow, type CertificateStatus } from './repository';

type S = components['schemas'];

/** What the buyer sees of a certificate. */
export function certificateForApi(c: CertificateRow): S['WithholdingCertificate'] {
  return {
    id: c.id,
    status: c.status === 'replaced' ? 'rejected' : c.status,
    file_name: c.original_name,
    uploaded_at: new Date(c.uploaded_at).toISOString(),
    decided_at: c.decided_at ? new Date(c.decided_at).toISOString() : null,
    reason: c.reason,
  };
}

/** Is this order one whose buyer withheld tax from a payment (so a certificate is due)? */
const withheld = (o: Pick<OrderRow, 'withholding_price'>) => Number(o.withholding_price) > 0;
const paid = (o: Pick<OrderRow, 'status' | 'payment_status'>) => o.status === 'approved' && o.payment_status === 'approved';

/** The order's withholding and its certificate, as the order list shows them; null when nothing was withheld. */
export function withholdingForApi(o: OrderRow, latest: CertificateRow | null): S['OrderWithholding'] | null {
  if (!withheld(o)) return null;
  const certificate = latest ? certificateForApi(latest) : null;
  return {
    amount: Number(o.withholding_price),
    currency_code: o.currency_code,
    certificate,
    can_upload: paid(o) && certificate?.status !== 'received',
  };
}

export async function withholdingOfOrder(q: Queryable, o: OrderRow): Promise<S['OrderWithholding'] | null> {
  return withheld(o) ? withholdingForApi(o, await latestCertificate(q, o.id)) : null;
}

/** The latest certificate of each order (the order lists). */
export async function certificatesOfOrders(q: Queryable, orderIds: readonly number[]): Promise<Map<number, CertificateRow>> {
  return new Map((await latestCertificates(q, orderIds)).map((c) => [c.order_id, c]));
}

/** Why this order takes no certificate now, or null when it takes one. */
function refusal(o: OrderRow, latest: CertificateRow | null): ApiError | null {
  if (!paid(o)) return new ApiError(409, 'WITHHOLDING_ORDER_NOT_PAID', MSG.WITHHOLDING_ORDER_NOT_PAID);
  if (!withheld(o)) return new ApiError(409, 'WITHHOLDING_NOT_WITHHELD', MSG.WITHHOLDING_NOT_WITHHELD);
  if (latest?.status === 'received') return new ApiError(409, 'WITHHOLDING_CERTIFICATE_RECEIVED', MSG.WITHHOLDING_CERTIFICATE_RECEIVED);
  return null;
}

/** The student's own order, or 404 (another student's, a deleted one). */
async function ownOrder(q: Queryable, orderId: number, userId: number, forUpdate = false): Promise<OrderRow> {
  const o = await findOrder(q, orderId, { userId, forUpdate });
  if (!o || o.is_deleted) throw new ApiError(404, 'NOT_FOUND', 'Order not found');
  return o;
}

/** Checked before the file is read: the order takes a certificate from this student now. */
export async function assertCertificateWanted(ctx: Pick<AppContext, 'db'>, orderId: number, userId: number): Promise<void> {
  const o = await ownOrder(ctx.db, orderId, userId);
  const no = refusal(o, await latestCertificate(ctx.db, o.id));
  if (no) throw no;
}

/**
 * Stores the checked file as the student's upload, then records it as the order's certificate
 * (the rules checked again under the order's lock; a waiting one is replaced).
 */
export async function submitCertificate(ctx: AppContext, orderId: number, userId: number, file: CheckedFile, storedName: string): Promise<CertificateRow> {
  await storeUpload(ctx, { kind: 'student', userId }, file, storedName);
  return ctx.db.tx(async (q) => {
    const o = await ownOrder(q, orderId, userId, true);
    const no = refusal(o, await latestCertificate(q, o.id));
    if (no) throw no;
    await markReplaced(q, o.id);
    const row = await insertCertificate(q, { order_id: o.id, user_id: userId, file_name: storedName, original_name: file.original, mime: file.mime, size: file.size, uploaded_at: ctx.clock.now() });
    afterCommit(q, () => ctx.events.emit('order.statusChanged', { orderId: o.id, userId: o.user_id, status: o.status, paymentStatus: o.payment_status }));
    return row;
  });
}

/** The back office refuses with a status and a text (server/admin/routes.ts renders it). */
export class CertificateRefused extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.name = 'CertificateRefused';
  }
}

/**
 * The shop's decision on a waiting certificate: received, or rejected with a reason (the buyer may
 * then upload another). The buyer's open order list is told (the order's record changed).
 */
export async function decide(ctx: Pick<AppContext, 'db' | 'clock' | 'events'>, id: number, d: { status: 'received' | 'rejected'; by: string; reason?: string }): Promise<CertificateRow> {
  const reason = d.status === 'rejected' ? (d.reason ?? '').trim().slice(0, 500) : null;
  if (d.status === 'rejected' && !reason) throw new CertificateRefused(400, 'a rejection needs a reason');
  return ctx.db.tx(async (q) => {
    const c = await findCertificate(q, id);
    if (!c) throw new CertificateRefused(404, `withholding certificate ${id} not found`);
    const o = await findOrder(q, c.order_id, { forUpdate: true });
    const row = await decideCertificate(q, id, { status: d.status, at: ctx.clock.now(), by: d.by.slice(0, 100) || 'web', reason });
    if (!row) throw new CertificateRefused(409, `withholding certificate ${id} is ${c.status}, not waiting for a decision`);
    if (o) afterCommit(q, () => ctx.events.emit('order.statusChanged', { orderId: o.id, userId: o.user_id, status: o.status, paymentStatus: o.payment_status }));
    return row;
  });
}

export async function certificateFile(ctx: Pick<AppContext, 'db'>, id: number): Promise<CertificateRow> {
  const c = await findCertificate(ctx.db, id);
  if (!c) throw new CertificateRefused(404, `withholding certificate ${id} not found`);
  return c;
}

export async function certificateList(ctx: Pick<AppContext, 'db'>, opts: { status?: CertificateStatus; limit?: number } = {}): Promise<CertificateListRow[]> {
  return listCertificates(ctx.db, { ...(opts.status ? { status: opts.status } : {}), limit: Math.min(Math.max(opts.limit ?? 50, 1), 500) });
}
