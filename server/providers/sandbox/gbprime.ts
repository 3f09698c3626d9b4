/**
 * GB Prime Pay emulator (/sandbox/gbprime): /v2/tokens (public key), /v2/tokens/charge (secret
 * key), /v2/tokens/3d_secured (pass / fail page), the hosted card page /v2/checkout (checksum
 * checked), /v3/qrcode (PromptPay PNG, a real EMVCo bill-payment payload), /v1/check_status_txn,
 * and background posts to the merchant's backgroundUrl. State is in the database (./store.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAmount, toDecimalString } from '../../../domain/money';
import { buildPromptPayPayload } from '../../../domain/promptpay';
import { gbChecksum, type GbTxnStatus } from '../gbprime';
import { safeEqual } from '../http';
import { gbprimeOutcome, luhnValid, validExpiry, type CardOutcome } from './cards';
import { acceptForms, escapeHtml, newId, page, qrPng, str, type SandboxContext } from './common';

/** The biller id GB Prime Pay's QR Cash pays into (sandbox). */
export const GBPRIME_SANDBOX_BILLER_ID = '010554612345601';

interface Txn {
  referenceNo: string;
  gbpReferenceNo: string;
  amount: number;
  status: GbTxnStatus;
  paymentType: 'C' | 'Q';
  resultCode: string;
  cardNo: string;
  outcome: CardOutcome | null;
  responseUrl: string;
  failureUrl: string;
  backgroundUrl: string;
  detail: string;
}

function basicUser(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h?.startsWith('Basic ')) return null;
  return Buffer.from(h.slice(6), 'base64').toString('utf8').split(':')[0] ?? null;
}

export async function gbprimeSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.gbprime;
  const base = () => `${ctx.browserOrigin()}/sandbox/gbprime`;
  const tokens = ctx.table<{ outcome: CardOutcome; cardNo: string; used: boolean }>('gbprime', 'token');
  /** referenceNo → transaction. */
  const txns = ctx.table<Txn>('gbprime', 'txn');
  /** gbpReferenceNo → referenceNo. */
  const byGbp = ctx.table<string>('gbprime', 'gbp');
  acceptForms(app);

  async function txnByGbp(gbp: string): Promise<Txn | undefined> {
    const ref = gbp ? await byGbp.get(gbp) : undefined;
    return ref === undefined ? undefined : txns.get(ref);
  }

  /** Marks the token used under its row lock; the token when it was unused. */
  async function takeToken(token: string) {
    const took = await tokens.update(token, (t) => (t.used ? false : (t.used = true)));
    return took?.result ? took.value : undefined;
  }

  async function makeToken(card: Record<string, unknown>): Promise<{ ok: true; token: string; cardNo: string } | { ok: false; code: string; message: string }> {
    const number = str(card.number).replace(/[\s-]/gu, '');
    if (!luhnValid(number)) return { ok: false, code: '54', message: 'Invalid card number' };
    if (!validExpiry(Number(card.expirationMonth), Number(card.expirationYear), ctx.now())) return { ok: false, code: '54', message: 'Invalid expiry date' };
    if (!/^\d{3,4}$/u.test(str(card.securityCode))) return { ok: false, code: '54', message: 'Invalid security code' };
    const token = newId('', 16);
    const cardNo = `${number.slice(0, 6)}XXXXXX${number.slice(-4)}`;
    await tokens.set(token, { outcome: gbprimeOutcome(number), cardNo, used: false });
    return { ok: true, token, cardNo };
  }

  async function newTxn(t: Omit<Txn, 'gbpReferenceNo' | 'status' | 'resultCode'>): Promise<Txn | null> {
    const txn: Txn = { ...t, gbpReferenceNo: newId('gbp', 8), status: 'P', resultCode: '' };
    if (!(await txns.insert(txn.referenceNo, txn))) return null;
    await byGbp.set(txn.gbpReferenceNo, txn.referenceNo);
    return txn;
  }

  /** Settles a pending transaction once (row lock), then posts to its backgroundUrl. */
  async function settle(referenceNo: string, paid: boolean, code = paid ? '00' : '54'): Promise<{ changed: boolean; txn: Txn } | undefined> {
    const r = await txns.update(referenceNo, (t) => {
      if (t.status !== 'P') return false;
      t.status = paid ? (t.paymentType === 'Q' ? 'G' : 'S') : 'D';
      t.resultCode = code;
      return true;
    });
    if (!r) return undefined;
    const txn = r.value;
    if (!r.result) return { changed: false, txn };
    const now = new Date(ctx.now().getTime() + 7 * 3600_000).toISOString();
    const body = {
      resultCode: code,
      amount: Number(toDecimalString(txn.amount)),
      referenceNo: txn.referenceNo,
      gbpReferenceNo: txn.gbpReferenceNo,
      currencyCode: '764',
      paymentType: txn.paymentType,
      date: now.slice(8, 10) + now.slice(5, 7) + now.slice(0, 4),
      time: now.slice(11, 19).replace(/:/gu, ''),
      ...(txn.cardNo ? { cardNo: txn.cardNo } : {}),
      detail: txn.detail,
    };
    if (txn.backgroundUrl) await ctx.deliver({ provider: 'gbprime', url: txn.backgroundUrl, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { changed: true, txn };
  }

  function browserReturn(reply: FastifyReply, txn: Txn) {
    const ok = GB_PAID_SANDBOX.has(txn.status);
    const target = ok ? txn.responseUrl : txn.failureUrl || txn.responseUrl;
    if (!target) return reply.type('text/html').send(page('GB Prime Pay', `<h1>${ok ? 'Paid' : 'Not paid'}</h1>`));
    const u = new URL(target);
    u.searchParams.set('referenceNo', txn.referenceNo);
    u.searchParams.set('resultCode', txn.resultCode);
    return reply.redirect(u.toString(), 303);
  }

  function threeDsPage(txn: Txn) {
    return page(
      'GB Prime Pay 3-D Secure',
      `<h1>3-D Secure verification</h1><div class="box"><p>Amount ${toDecimalString(txn.amount)} THB<br>Card ${escapeHtml(txn.cardNo)}</p>
<form method="post" action="${escapeHtml(`${base()}/v2/tokens/3d_secured/${txn.gbpReferenceNo}/result`)}"><button name="result" value="pass" data-testid="3ds-pass">Pass</button><button name="result" value="fail" data-testid="3ds-fail">Fail</button></form></div>`,
    );
  }

  // --- API ---
  app.post('/v2/tokens', { logLevel: 'silent' }, async (req, reply) => {
    if (basicUser(req) !== cfg().publicKey) return reply.code(401).send({ resultCode: '90', resultMessage: 'Unauthorized' });
    const card = ((req.body ?? {}) as Record<string, unknown>).card;
    const r = await makeToken(typeof card === 'object' && card !== null ? (card as Record<string, unknown>) : {});
    if (!r.ok) return reply.code(400).send({ resultCode: r.code, resultMessage: r.message });
    return reply.send({ rememberCard: false, resultCode: '00', card: { token: r.token, number: r.cardNo, name: str((card as Record<string, unknown>).name) } });
  });

  app.post('/v2/tokens/charge', async (req, reply) => {
    if (basicUser(req) !== cfg().secretKey) return reply.code(401).send({ resultCode: '90', resultMessage: 'Unauthorized' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    const tokenId = str((b.card as Record<string, unknown> | undefined)?.token);
    const amount = parseAmount(String(b.amount ?? ''));
    const known = tokenId ? await tokens.get(tokenId) : undefined;
    if (!known || known.used) return reply.code(400).send({ resultCode: '02', resultMessage: 'Invalid token' });
    if (amount === null || amount <= 0) return reply.code(400).send({ resultCode: '02', resultMessage: 'Invalid amount' });
    const tok = await takeToken(tokenId);
    if (!tok) return reply.code(400).send({ resultCode: '02', resultMessage: 'Invalid token' });
    const txn = await newTxn({ referenceNo: str(b.referenceNo), amount, paymentType: 'C', cardNo: tok.cardNo, outcome: tok.outcome, responseUrl: str(b.responseUrl), failureUrl: '', backgroundUrl: str(b.backgroundUrl), detail: str(b.detail) });
    if (!txn) return reply.code(400).send({ resultCode: '02', resultMessage: 'Duplicate referenceNo' });
    if (str(b.otp) !== 'Y') await settle(txn.referenceNo, tok.outcome.kind !== 'fail', tok.outcome.kind === 'fail' ? tok.outcome.code : '00');
    return reply.send({ resultCode: '00', amount: Number(toDecimalString(amount)), referenceNo: txn.referenceNo, gbpReferenceNo: txn.gbpReferenceNo });
  });

  app.post('/v2/tokens/3d_secured', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const txn = await txnByGbp(str(b.gbpReferenceNo));
    if (str(b.publicKey) !== cfg().publicKey || !txn) return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Invalid request</h1>'));
    if (txn.status !== 'P') return browserReturn(reply, txn);
    return reply.type('text/html').send(threeDsPage(txn));
  });

  app.post('/v2/tokens/3d_secured/:gbp/result', async (req, reply) => {
    const found = await txnByGbp((req.params as { gbp: string }).gbp);
    if (!found) return reply.code(404).type('text/html').send(page('GB Prime Pay', '<h1>Unknown transaction</h1>'));
    const pass = str(((req.body ?? {}) as Record<string, unknown>).result) === 'pass';
    const o = found.outcome;
    const r = o?.kind === 'fail' ? await settle(found.referenceNo, false, o.code) : await settle(found.referenceNo, pass, pass ? '00' : '15');
    return browserReturn(reply, r?.txn ?? found);
  });

  // Hosted card page (invoice_url): amount and URLs are covered by the merchant's checksum.
  app.get('/v2/checkout', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const parts = [q.amount ?? '', q.referenceNo ?? '', q.responseUrl ?? '', q.failureUrl ?? '', q.backgroundUrl ?? ''];
    if (q.publicKey !== cfg().publicKey || !safeEqual(q.checksum ?? '', gbChecksum(cfg().secretKey, parts))) {
      return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Invalid checksum</h1>'));
    }
    const hidden = Object.entries(q)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v ?? '')}">`)
      .join('');
    return reply.type('text/html').send(
      page(
        'GB Prime Pay',
        `<h1>GB Prime Pay</h1><div class="box"><p>${escapeHtml(q.detail ?? '')}<br>Amount ${escapeHtml(q.amount ?? '')} THB</p>
<form method="post" action="${escapeHtml(`${base()}/v2/checkout`)}">${hidden}
<label>Card number<input name="number" autocomplete="off" inputmode="numeric" value="4535017710535741"></label>
<label>Month (MM)<input name="expirationMonth" value="12"></label><label>Year (YY)<input name="expirationYear" value="30"></label>
<label>CVV<input name="securityCode" type="password" value="123"></label><label>Name<input name="name" value="${escapeHtml(q.customerName ?? '')}"></label>
<button data-testid="gbp-pay">Pay</button></form></div>`,
      ),
    );
  });

  app.post('/v2/checkout', { logLevel: 'silent' }, async (req, reply) => {
    const b = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
    const parts = [b.amount ?? '', b.referenceNo ?? '', b.responseUrl ?? '', b.failureUrl ?? '', b.backgroundUrl ?? ''];
    if (b.publicKey !== cfg().publicKey || !safeEqual(b.checksum ?? '', gbChecksum(cfg().secretKey, parts))) {
      return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Invalid checksum</h1>'));
    }
    const amount = parseAmount(b.amount ?? '');
    const existing = b.referenceNo ? await txns.get(b.referenceNo) : undefined;
    if (existing) return existing.status === 'P' ? reply.type('text/html').send(threeDsPage(existing)) : browserReturn(reply, existing);
    const t = await makeToken(b);
    if (!t.ok || amount === null) return reply.code(400).type('text/html').send(page('GB Prime Pay', `<h1>${escapeHtml(t.ok ? 'Invalid amount' : t.message)}</h1>`));
    const tok = await takeToken(t.token);
    if (!tok) return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Invalid token</h1>'));
    const txn = await newTxn({ referenceNo: b.referenceNo ?? '', amount, paymentType: 'C', cardNo: tok.cardNo, outcome: tok.outcome, responseUrl: b.responseUrl ?? '', failureUrl: b.failureUrl ?? '', backgroundUrl: b.backgroundUrl ?? '', detail: b.detail ?? '' });
    if (!txn) return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Duplicate referenceNo</h1>'));
    return reply.type('text/html').send(threeDsPage(txn));
  });

  app.post('/v3/qrcode', async (req, reply) => {
    const b = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
    if (b.token !== cfg().token) return reply.code(401).send({ resultCode: '90', resultMessage: 'Invalid token' });
    const amount = parseAmount(b.amount ?? '');
    const ref = b.referenceNo ?? '';
    if (amount === null || amount <= 0) return reply.code(400).send({ resultCode: '02', resultMessage: 'Invalid amount' });
    if (!/^[A-Z0-9]{1,20}$/u.test(ref)) return reply.code(400).send({ resultCode: '02', resultMessage: 'referenceNo must be A-Z 0-9, up to 20' });
    const txn = await newTxn({ referenceNo: ref, amount, paymentType: 'Q', cardNo: '', outcome: null, responseUrl: '', failureUrl: '', backgroundUrl: b.backgroundUrl ?? '', detail: b.detail ?? '' });
    if (!txn) return reply.code(400).send({ resultCode: '02', resultMessage: 'Duplicate referenceNo' });
    const payload = buildPromptPayPayload({ kind: 'billPayment', billerId: GBPRIME_SANDBOX_BILLER_ID, ref1: ref }, { amount });
    return reply.type('image/png').send(await qrPng(payload));
  });

  app.post('/v1/check_status_txn', async (req, reply) => {
    if (basicUser(req) !== cfg().secretKey) return reply.code(401).send({ resultCode: '90', resultMessage: 'Unauthorized' });
    const ref = str(((req.body ?? {}) as Record<string, unknown>).referenceNo);
    const txn = ref ? await txns.get(ref) : undefined;
    if (!txn) return reply.send({ resultCode: '02', resultMessage: 'Transaction not found' });
    return reply.send({
      resultCode: '00',
      txn: { referenceNo: txn.referenceNo, gbpReferenceNo: txn.gbpReferenceNo, amount: Number(toDecimalString(txn.amount)), status: txn.status, paymentType: txn.paymentType, resultCode: txn.resultCode },
    });
  });

  // --- Sandbox controls: the customer pays (or the bank declines) a PromptPay QR ---
  app.post('/control/qrcode/:referenceNo/:action', async (req, reply) => {
    const { referenceNo, action } = req.params as { referenceNo: string; action: string };
    if (!(await txns.has(referenceNo))) return reply.code(404).send({ error: 'transaction not found' });
    if (action !== 'pay' && action !== 'decline') return reply.code(400).send({ error: 'action is pay or decline' });
    const r = await settle(referenceNo, action === 'pay', action === 'pay' ? '00' : '54');
    if (!r) return reply.code(404).send({ error: 'transaction not found' });
    return reply.send({ changed: r.changed, status: r.txn.status });
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'gbprime') }));
}

const GB_PAID_SANDBOX = new Set<GbTxnStatus>(['S', 'A', 'G']);
