/** The student's document operations (tag orders): list an order's documents, download one as PDF. */
import type { Handlers } from '../openapi/router';
import type { components } from '../../generated/api';
import { ApiError } from '../errors';
import { findOrder } from '../orders/repository';
import { documentsOfOrder, findDocument, type DocumentRow } from './repository';
import { withholdingOfOrder } from '../withholding/service';

type S = components['schemas'];

export function documentForApi(d: DocumentRow, all: readonly DocumentRow[]): S['OrderDocument'] {
  const credited = d.credits_document_id ? all.find((x) => x.id === d.credits_document_id) : null;
  const canceller = d.cancelled_by_id ? all.find((x) => x.id === d.cancelled_by_id) : null;
  return {
    id: d.id,
    kind: d.kind,
    number: d.number,
    issued_at: new Date(d.issued_at).toISOString(),
    date: d.payload.date,
    currency_code: d.currency,
    amount: d.amount,
    ...(d.kind === 'credit_note' ? {} : { received: d.payload.amounts.received, withholding: d.payload.amounts.withholding }),
    credits: d.credits_document_id ? { id: d.credits_document_id, number: credited?.number ?? d.payload.credit?.document_number ?? '' } : null,
    replaced_by_credit_note: canceller?.number ?? null,
    pdf_url: `/private/documents/${d.id}/pdf`,
  };
}

/** A document of the student's own order, or 404 (another student's reads as unknown). */
async function ownDocument(db: Parameters<typeof findDocument>[0], id: number, userId: number): Promise<DocumentRow> {
  const d = await findDocument(db, id);
  if (!d || d.user_id !== userId) throw new ApiError(404, 'NOT_FOUND', 'Document not found');
  return d;
}

export const documentHandlers: Handlers = {
  async listOrderDocuments(req, _reply, ctx) {
    const o = await findOrder(ctx.db, req.params.orderId);
    if (!o || o.user_id !== req.user!.id || (o.is_deleted && o.status !== 'cancelled')) throw new ApiError(404, 'NOT_FOUND', 'Order not found');
    const rows = await documentsOfOrder(ctx.db, o.id);
    return { success: true, data: rows.map((d) => documentForApi(d, rows)), withholding: await withholdingOfOrder(ctx.db, o) };
  },

  async downloadDocumentPdf(req, reply, ctx) {
    const d = await ownDocument(ctx.db, req.params.documentId, req.user!.id);
    const lang = req.query.lang === 'en' ? 'en' : 'th';
    const { renderDocumentPdf } = await import('./pdf');
    const pdf = await renderDocumentPdf(d.payload, { language: lang, signer: ctx.documentSigner ?? null });
    return reply
      .code(200)
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${d.number}${lang === 'en' ? '-en' : ''}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(pdf));
  },
};
