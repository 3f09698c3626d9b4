/**
 * GB Prime Pay emulator (/sandbox/gbprime), imitating the calls GB Prime Pay's official plugins
 * make (docs/providers/gbprimepay.md): /v1/tokens (public key; called by the buyer's browser, so it
 * answers CORS and its preflight), /v1/tokens/charge (secret key),
 * /v1/tokens/3d_secured (the browser's form post: publicKey + gbpReferenceNo; pass / fail page),
 * /gbp/gateway/qrcode (multipart/form-data with the customer token, answered with a PNG holding a
 * real EMVCo bill-payment payload; a refusal is the text "Incomplete information"),
 * /v1/check_status_txn (secret key; `txn` for a card transaction, `txns` (array) for a QR one —
 * GB Prime Pay answers both shapes), the browser's return (auto-posted form to responseUrl:
 * resultCode, referenceNo, gbpReferenceNo, amount) and background posts to backgroundUrl (card:
 * a form post, as the Magento plugin reads $_POST; QR: JSON, as it reads php://input).
 * State is in the database (./store.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAmount, toDecimalString } from '../../../domain/money';
import { buildPromptPayPayload } from '../../../domain/promptpay';
import type { GbTxnStatus } from '../gbprime';
import { gbprimeOutcome, luhnValid, validExpiry, type CardOutcome } from './cards';
import { acceptForms, autoPostPage, escapeHtml, newId, page, qrPng, str, tokenPreflight, type SandboxContext } from './common';

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
  async function settle(referenceNo: string, paid: boolean, code = paid ? '00' : '54', failedAs: GbTxnStatus = 'D'): Promise<{ changed: boolean; txn: Txn } | undefined> {
    const r = await txns.update(referenceNo, (t) => {
      if (t.status !== 'P') return false;
      t.status = paid ? (t.paymentType === 'Q' ? 'G' : 'S') : failedAs;
      t.resultCode = code;
      return true;
    });
    if (!r) return undefined;
    const txn = r.value;
    if (!r.result) return { changed: false, txn };
    const now = new Date(ctx.now().getTime() + 7 * 3600_000).toISOString();
    const body: Record<string, string | number> = {
      resultCode: code,
      amount: toDecimalString(txn.amount),
      referenceNo: txn.referenceNo,
      gbpReferenceNo: txn.gbpReferenceNo,
      currencyCode: '764',
      paymentType: txn.paymentType,
      date: now.slice(8, 10) + now.slice(5, 7) + now.slice(0, 4),
      time: now.slice(11, 19).replace(/:/gu, ''),
      ...(txn.cardNo ? { cardNo: txn.cardNo } : {}),
      detail: txn.detail,
      merchantDefined1: txn.referenceNo,
    };
    if (txn.backgroundUrl) {
      if (txn.paymentType === 'Q') await ctx.deliver({ provider: 'gbprime', url: txn.backgroundUrl, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, amount: Number(body.amount) }) });
      else await ctx.deliver({ provider: 'gbprime', url: txn.backgroundUrl, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString() });
    }
    return { changed: true, txn };
  }

  /** GB Prime Pay posts the browser back to responseUrl (resultCode, referenceNo, gbpReferenceNo, amount). */
  function browserReturn(reply: FastifyReply, txn: Txn) {
    const ok = GB_PAID_SANDBOX.has(txn.status);
    if (!txn.responseUrl) return reply.type('text/html').send(page('GB Prime Pay', `<h1>${ok ? 'Paid' : 'Not paid'}</h1>`));
    return reply
      .type('text/html')
      .send(autoPostPage('GB Prime Pay', txn.responseUrl, { resultCode: txn.resultCode, referenceNo: txn.referenceNo, gbpReferenceNo: txn.gbpReferenceNo, amount: toDecimalString(txn.amount) }));
  }

  function threeDsPage(txn: Txn) {
    return page(
      'GB Prime Pay 3-D Secure',
      `<h1>3-D Secure verification</h1><div class="box"><p>Amount ${toDecimalString(txn.amount)} THB<br>Card ${escapeHtml(txn.cardNo)}</p>
<form method="post" action="${escapeHtml(`${base()}/v1/tokens/3d_secured/${txn.gbpReferenceNo}/result`)}"><button name="result" value="pass" data-testid="3ds-pass">Pass</button><button name="result" value="fail" data-testid="3ds-fail">Fail</button></form></div>`,
    );
  }

  // --- API ---
  // /v1/tokens is called by the buyer's browser (the shop's card page, public key): it answers
  // CORS, preflight included (Authorization + Content-Type), as a browser-callable API must.
  // Whether GB Prime Pay's production API does is not published (docs/providers/gbprimepay.md).
  tokenPreflight(app, '/v1/tokens', { maxAge: 600, silent: true });

  app.post('/v1/tokens', { logLevel: 'silent' }, async (req, reply) => {
    reply.header('access-control-allow-origin', '*');
    if (basicUser(req) !== cfg().publicKey) return reply.code(401).send({ resultCode: '90', resultMessage: 'Unauthorized' });
    const card = ((req.body ?? {}) as Record<string, unknown>).card;
    const r = await makeToken(typeof card === 'object' && card !== null ? (card as Record<string, unknown>) : {});
    if (!r.ok) return reply.code(400).send({ resultCode: r.code, resultMessage: r.message });
    return reply.send({ rememberCard: false, resultCode: '00', card: { token: r.token, number: r.cardNo, name: str((card as Record<string, unknown>).name) } });
  });

  app.post('/v1/tokens/charge', async (req, reply) => {
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

  app.post('/v1/tokens/3d_secured', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const txn = await txnByGbp(str(b.gbpReferenceNo));
    if (str(b.publicKey) !== cfg().publicKey || !txn) return reply.code(400).type('text/html').send(page('GB Prime Pay', '<h1>Invalid request</h1>'));
    if (txn.status !== 'P') return browserReturn(reply, txn);
    return reply.type('text/html').send(threeDsPage(txn));
  });

  app.post('/v1/tokens/3d_secured/:gbp/result', async (req, reply) => {
    const found = await txnByGbp((req.params as { gbp: string }).gbp);
    if (!found) return reply.code(404).type('text/html').send(page('GB Prime Pay', '<h1>Unknown transaction</h1>'));
    const pass = str(((req.body ?? {}) as Record<string, unknown>).result) === 'pass';
    const o = found.outcome;
    // A bank decline keeps its ISO 8583 code; a failed 3-D Secure is status V (verification failed).
    const r = !pass ? await settle(found.referenceNo, false, '15', 'V') : o?.kind === 'fail' ? await settle(found.referenceNo, false, o.code) : await settle(found.referenceNo, true, '00');
    return browserReturn(reply, r?.txn ?? found);
  });

  app.post('/gbp/gateway/qrcode', async (req, reply) => {
    const b: Record<string, string> = {};
    if (!req.isMultipart()) return reply.code(400).type('text/plain').send('Incomplete information');
    for await (const part of req.parts()) if (part.type === 'field') b[part.fieldname] = str(part.value);
    if (b.token !== cfg().token) return reply.code(200).type('text/plain').send('Incomplete information');
    const amount = parseAmount(b.amount ?? '');
    const ref = b.referenceNo ?? '';
    if (amount === null || amount <= 0 || !/^[A-Za-z0-9]{1,20}$/u.test(ref) || !b.backgroundUrl) return reply.code(200).type('text/plain').send('Incomplete information');
    const txn = await newTxn({ referenceNo: ref, amount, paymentType: 'Q', cardNo: '', outcome: null, responseUrl: '', failureUrl: '', backgroundUrl: b.backgroundUrl ?? '', detail: b.detail ?? '' });
    if (!txn) return reply.code(200).type('text/plain').send('Incomplete information');
    const payload = buildPromptPayPayload({ kind: 'billPayment', billerId: GBPRIME_SANDBOX_BILLER_ID, ref1: ref }, { amount });
    return reply.type('image/png').send(await qrPng(payload));
  });

  app.post('/v1/check_status_txn', async (req, reply) => {
    if (basicUser(req) !== cfg().secretKey) return reply.code(401).send({ resultCode: '90', resultMessage: 'Unauthorized' });
    const ref = str(((req.body ?? {}) as Record<string, unknown>).referenceNo);
    const txn = ref ? await txns.get(ref) : undefined;
    if (!txn) return reply.send({ resultCode: '02', resultMessage: 'Transaction not found' });
    const row = { amount: toDecimalString(txn.amount), referenceNo: txn.referenceNo, gbpReferenceNo: txn.gbpReferenceNo, detail: txn.detail, merchantDefined1: txn.referenceNo, status: txn.status, paymentType: txn.paymentType, resultCode: txn.resultCode };
    // QR transactions answer `txns` (an array), card ones `txn`: the adapter reads both.
    return reply.send(txn.paymentType === 'Q' ? { resultCode: '00', txns: [row] } : { resultCode: '00', txn: row });
  });

  // --- Sandbox controls: the customer pays (or the bank declines) a PromptPay QR ---
  app.post('/control/qrcode/:referenceNo/:action', async (req, reply) => {
    const { referenceNo, action } = req.params as { referenceNo: string; action: string };
    if (!(await txns.has(referenceNo))) return reply.code(404).send({ error: 'transaction not found' });
    if (action !== 'pay' && action !== 'decline') return reply.code(400).send({ error: 'action is pay or decline' });
    const r = await settle(referenceNo, action === 'pay', action === 'pay' ? '00' : '05');
    if (!r) return reply.code(404).send({ error: 'transaction not found' });
    return reply.send({ changed: r.changed, status: r.txn.status });
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'gbprime') }));
}

const GB_PAID_SANDBOX = new Set<GbTxnStatus>(['S', 'A', 'G']);
