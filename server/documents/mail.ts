/**
 * The paid e-mail: when an order becomes paid (the order service's `order.statusChanged` with
 * status `approved`, emitted after the paying transaction commits), the buyer gets one mail in the
 * language they ordered in (`orders.locale`) with the order's receipt and, when issued, its full
 * tax invoice attached as PDF (the same PDF the buyer downloads: e-Tax XML inside, signed when a
 * certificate is configured). The back office's re-send attaches the same PDF
 * (server/documents/admin.ts).
 *
 * Like every mail a buyer's action causes, it goes through the mail guard (server/mail.ts
 * `sendGuarded`, kind `document`): only to the account's verified address, within its own
 * per-address limits (apart from payment notices). A buyer whose address is not verified gets no mail; the documents stay downloadable from
 * the order list and the thank-you page. Sent at most once per payment by the process that
 * committed it; a process that dies between the commit and the send sends nothing (the back
 * office's document list shows `sent_count` 0, and re-sends).
 */
import type { AppContext } from '../context';
import { formatMoney } from '../../domain/money';
import { paidOrderMail } from '../../domain/mail';
import { sendGuarded, type GuardResult, type MailAttachment } from '../mail';
import { findOrder } from '../orders/repository';
import { documentsOfOrder, markSent, type DocumentRow } from './repository';
import { TITLES, type DocLanguage } from './labels';
import type { DocumentSigner } from './signing';

type MailCtx = Pick<AppContext, 'db' | 'mail' | 'clock' | 'config' | 'log' | 'documentSigner'>;

/** A document as a mail attachment: `<number>.pdf` (`-en` for English), application/pdf. */
export async function documentAttachment(d: DocumentRow, language: DocLanguage, signer: DocumentSigner | null = null): Promise<MailAttachment> {
  const { renderDocumentPdf } = await import('./pdf');
  const content = await renderDocumentPdf(d.payload, { language, signer });
  return { filename: `${d.number}${language === 'en' ? '-en' : ''}.pdf`, contentType: 'application/pdf', content };
}

/** The account's address and whether its owner verified it (the guard's `verified`). */
export async function recipientOf(ctx: Pick<AppContext, 'db'>, userId: number, orderEmail: string | null): Promise<{ to: string; verified: boolean } | null> {
  const u = (await ctx.db.query<{ email: string; email_verified_at: Date | null }>('SELECT email, email_verified_at FROM users WHERE id = $1', [userId])).rows[0];
  if (!u) return null;
  const to = (orderEmail ?? u.email).trim();
  return { to, verified: u.email_verified_at !== null && u.email.trim().toLowerCase() === to.toLowerCase() };
}

/** Sends the paid e-mail of a paid order with its live receipt / tax invoice attached. */
export async function sendPaidMail(ctx: MailCtx, orderId: number): Promise<GuardResult | 'no_documents' | 'not_paid'> {
  const order = await findOrder(ctx.db, orderId);
  if (!order || order.status !== 'approved') return 'not_paid';
  const docs = (await documentsOfOrder(ctx.db, order.id)).filter((d) => d.kind !== 'credit_note' && d.cancelled_by_id === null);
  if (docs.length === 0) return 'no_documents';
  const who = await recipientOf(ctx, order.user_id, order.email);
  if (!who) return 'unverified';
  const lang: DocLanguage = order.locale === 'en' ? 'en' : 'th';
  // Rendered only when the guard lets the mail go.
  const attachments = () => Promise.all(docs.map((d) => documentAttachment(d, lang, ctx.documentSigner ?? null)));
  const text = paidOrderMail(lang, {
    orderId: order.id,
    amount: formatMoney(order.total, order.currency_code, lang === 'en' ? 'en-US' : 'th-TH'),
    documents: docs.map((d) => ({ title: TITLES[lang][d.kind], number: d.number })),
    link: `${ctx.config.publicOrigin ?? ''}/myaccount/student/order`,
  });
  const now = ctx.clock.now();
  const result = await sendGuarded(ctx.db, ctx.mail, { to: who.to, tag: 'paid', ...text, attachments }, { kind: 'document', userId: order.user_id, address: null, verified: who.verified, now });
  if (result === 'sent') for (const d of docs) await markSent(ctx.db, d.id, now);
  return result;
}

/** How long the paid e-mails wait for a pause in payments, and at most (a steady stream). */
export const PAID_MAIL_QUIET_MS = 500;
export const PAID_MAIL_MAX_WAIT_MS = 30_000;

/**
 * Listens for paid orders and sends their paid e-mail, one at a time, once payments pause
 * (PAID_MAIL_QUIET_MS after the last one, at most PAID_MAIL_MAX_WAIT_MS after the first waiting):
 * rendering and signing PDFs costs CPU on the server's one thread, and a burst of payments must
 * not starve the payments' own transactions (200 concurrent payments on PostgreSQL waited past the
 * pool's connect timeout while the mails rendered between them). Returns `close`: stops
 * listening, drops the mails not yet started (logged; their documents keep `sent_count` 0 for the
 * back office to re-send) and waits for the one being sent.
 */
export function registerPaidMail(ctx: MailCtx & Pick<AppContext, 'events'>): () => Promise<void> {
  const queue: number[] = [];
  let running: Promise<void> | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstWaiting = 0;
  const drain = async (): Promise<void> => {
    // Stops when payments come again (a timer is set): the timer starts it once they pause.
    while (!closed && timer === null && queue.length > 0) {
      const orderId = queue.shift()!;
      try {
        const result = await sendPaidMail(ctx, orderId);
        if (result !== 'sent') ctx.log.info({ orderId, result }, 'paid e-mail not sent');
      } catch (err) {
        ctx.log.error({ err, orderId }, 'paid e-mail failed');
      }
    }
    running = null;
  };
  const start = () => {
    timer = null;
    firstWaiting = 0;
    running ??= drain();
  };
  const off = ctx.events.on('order.statusChanged', (e) => {
    if (e.status !== 'approved' || closed) return;
    queue.push(e.orderId);
    const now = Date.now();
    if (firstWaiting === 0) firstWaiting = now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(start, Math.max(0, Math.min(PAID_MAIL_QUIET_MS, firstWaiting + PAID_MAIL_MAX_WAIT_MS - now)));
    timer.unref?.();
  });
  return async () => {
    closed = true;
    off();
    if (timer) clearTimeout(timer);
    if (queue.length > 0) ctx.log.warn({ orderIds: queue.splice(0) }, 'paid e-mail not sent: the server is closing');
    await running;
  };
}
