/**
 * The back office's document calls (registered inside server/admin/routes.ts, so the admin token
 * or session and its CSRF / Origin checks apply):
 *   GET  /admin/api/documents[?kind=&before=]   issued documents, newest first (JSON)
 *   POST /admin/api/documents/:id/resend        mails the buyer a link to the document (counted in sent_count)
 *   POST /admin/api/documents/:id/correct {reason}  a credit note for the whole document and a new one
 * A re-send goes through the mail guard ('notice': only to a verified address, rate-limited).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { isDocumentKind } from '../../domain/documents';
import { formatMoney } from '../../domain/money';
import { plainField, sendGuarded } from '../mail';
import { findDocument, listDocuments, markSent, type DocumentRow } from './repository';
import { correctDocument, DocumentRefused } from './service';
import { TITLES } from './labels';
import { AdminError } from '../admin/service';

function summary(d: DocumentRow) {
  return {
    id: d.id,
    kind: d.kind,
    number: d.number,
    order_id: d.order_id,
    user_id: d.user_id,
    issued_at: new Date(d.issued_at).toISOString(),
    currency: d.currency,
    amount: d.amount,
    buyer: d.payload.buyer.name,
    credits_document_id: d.credits_document_id,
    cancelled_by_id: d.cancelled_by_id,
    sent_count: d.sent_count,
    last_sent_at: d.last_sent_at ? new Date(d.last_sent_at).toISOString() : null,
  };
}

/** Mails the buyer where to download the document; 'sent' or why not. */
export async function resendDocument(ctx: Pick<AppContext, 'db' | 'mail' | 'clock' | 'config'>, id: number): Promise<{ result: string; document: ReturnType<typeof summary> }> {
  const d = await findDocument(ctx.db, id);
  if (!d) throw new AdminError(404, `document ${id} not found`);
  const u = (await ctx.db.query<{ email: string; email_verified_at: Date | null }>('SELECT email, email_verified_at FROM users WHERE id = $1', [d.user_id])).rows[0];
  if (!u) throw new AdminError(404, `buyer of document ${d.number} not found`);
  const origin = ctx.config.publicOrigin ?? '';
  const title = `${TITLES.th[d.kind]} / ${TITLES.en[d.kind]}`;
  const text = [
    `${title} ${d.number}`,
    `${plainField(d.payload.buyer.name)}`,
    `${formatMoney(d.amount, d.currency)}`,
    '',
    `ดาวน์โหลด (Download, after logging in): ${origin}/private/documents/${d.id}/pdf`,
    `English: ${origin}/private/documents/${d.id}/pdf?lang=en`,
  ].join('\n');
  const now = ctx.clock.now();
  const result = await sendGuarded(ctx.db, ctx.mail, { to: u.email, subject: `${title} ${d.number}`, text, tag: 'document' }, { kind: 'notice', userId: d.user_id, address: null, verified: u.email_verified_at !== null, now });
  const after = result === 'sent' ? await markSent(ctx.db, d.id, now) : d;
  return { result, document: summary(after ?? d) };
}

export function registerDocumentAdmin(admin: FastifyInstance, ctx: AppContext): void {
  const id = (req: FastifyRequest) => {
    const n = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(n) || n <= 0) throw new AdminError(404, 'bad id');
    return n;
  };
  admin.get('/api/documents', async (req) => {
    const q = req.query as { kind?: string; before?: string; limit?: string };
    const kind = isDocumentKind(q.kind) ? q.kind : undefined;
    const before = Number(q.before);
    const limit = Math.min(Math.max(Number(q.limit) || 50, 1), 500);
    const rows = await listDocuments(ctx.db, { ...(kind ? { kind } : {}), ...(Number.isSafeInteger(before) && before > 0 ? { beforeId: before } : {}), limit });
    return { success: true, data: rows.map(summary) };
  });
  admin.post('/api/documents/:id/resend', async (req) => ({ success: true, data: await resendDocument(ctx, id(req)) }));
  admin.post('/api/documents/:id/correct', async (req) => {
    const reason = String((req.body as Record<string, unknown> | undefined)?.reason ?? 'correction').slice(0, 200) || 'correction';
    try {
      const r = await ctx.db.tx((q) => correctDocument(q, id(req), reason, ctx.clock.now(), ctx.log));
      return { success: true, data: { credit_note: summary(r.credit_note), document: summary(r.document) } };
    } catch (err) {
      if (err instanceof DocumentRefused) throw new AdminError(err.status, err.message);
      throw err;
    }
  });
}
