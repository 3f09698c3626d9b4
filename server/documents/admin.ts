/**
 * The back office's document calls (registered inside server/admin/routes.ts, so the admin token
 * or session and its CSRF / Origin checks apply):
 *   GET  /admin/api/documents[?kind=&before=]   issued documents, newest first (JSON)
 *   POST /admin/api/documents/:id/resend        mails the buyer the document's PDF, as the paid e-mail attaches it (counted in sent_count)
 *   POST /admin/api/documents/:id/correct {reason}  a credit note for the whole document and a new one
 * A re-send goes through the mail guard ('document': only to a verified address, rate-limited).
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
import { findOrder } from '../orders/repository';
import { documentAttachment, recipientOf } from './mail';

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

/** Mails the buyer the document as PDF (the paid e-mail's attachment) and where to download it; 'sent' or why not. */
export async function resendDocument(ctx: Pick<AppContext, 'db' | 'mail' | 'clock' | 'config' | 'documentSigner'>, id: number): Promise<{ result: string; document: ReturnType<typeof summary> }> {
  const d = await findDocument(ctx.db, id);
  if (!d) throw new AdminError(404, `document ${id} not found`);
  const order = await findOrder(ctx.db, d.order_id);
  const who = await recipientOf(ctx, d.user_id, order?.email ?? null);
  if (!who) throw new AdminError(404, `buyer of document ${d.number} not found`);
  const lang = order?.locale === 'en' ? 'en' : 'th';
  const origin = ctx.config.publicOrigin ?? '';
  const title = `${TITLES.th[d.kind]} / ${TITLES.en[d.kind]}`;
  const text = [
    `${title} ${d.number}`,
    `${plainField(d.payload.buyer.name)}`,
    `${formatMoney(d.amount, d.currency)}`,
    '',
    `PDF: ${d.number}${lang === 'en' ? '-en' : ''}.pdf`,
    `ดาวน์โหลด (Download, after logging in): ${origin}/private/documents/${d.id}/pdf`,
    `English: ${origin}/private/documents/${d.id}/pdf?lang=en`,
  ].join('\n');
  const now = ctx.clock.now();
  const attachments = async () => [await documentAttachment(d, lang, ctx.documentSigner ?? null)];
  const result = await sendGuarded(ctx.db, ctx.mail, { to: who.to, subject: `${title} ${d.number}`, text, tag: 'document', attachments }, { kind: 'document', userId: d.user_id, address: null, verified: who.verified, now });
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
