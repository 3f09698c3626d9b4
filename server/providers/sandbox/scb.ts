/**
 * SCB emulator (/sandbox/scb): OAuth, QR30 create (real EMVCo bill-payment payload + PNG),
 * bill-payment inquiry, and a bank-app control that "pays" a QR and posts SCB's (unsigned)
 * payment confirmation to our callback. State is in the database (./store.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { parseAmount, toDecimalString } from '../../../domain/money';
import { buildPromptPayPayload } from '../../../domain/promptpay';
import type { ScbTransaction } from '../scb';
import { acceptForms, escapeHtml, newId, page, qrPng, str, type SandboxContext } from './common';

interface QrRec {
  ref1: string;
  ref2: string;
  ref3: string;
  amount: number;
  payload: string;
  /** ISO time (records are JSON). */
  createdAt: string;
}

function bangkokDate(d: Date): string {
  return new Date(d.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
}

function fail(reply: FastifyReply, http: number, code: number, description: string) {
  return reply.code(http).send({ status: { code, description } });
}

export async function scbSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.scb;
  /** Access token → expiry (ms). */
  const tokens = ctx.table<number>('scb', 'token');
  /** `ref1|ref2` → QR. */
  const qrs = ctx.table<QrRec>('scb', 'qr');
  const txns = ctx.table<ScbTransaction & { billerId: string; date: string }>('scb', 'txn');
  const callbackUrl = () => process.env.SCB_SANDBOX_CALLBACK_URL || `${ctx.selfOrigin()}/api/payment/scb/confirm`;
  acceptForms(app);

  async function authed(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const h = req.headers.authorization ?? '';
    const t = h.startsWith('Bearer ') ? h.slice(7) : '';
    const until = t ? await tokens.get(t) : undefined;
    if (!until || until < ctx.now().getTime()) {
      void fail(reply, 401, 9500, 'Invalid access token');
      return false;
    }
    if (req.headers.resourceownerid !== cfg().applicationKey || !req.headers.requestuid) {
      void fail(reply, 400, 9100, 'Missing or invalid resourceOwnerId / requestUId');
      return false;
    }
    return true;
  }

  app.post('/v1/oauth/token', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (req.headers.resourceownerid !== cfg().applicationKey) return fail(reply, 400, 9100, 'resourceOwnerId is invalid');
    if (b.applicationKey !== cfg().applicationKey || b.applicationSecret !== cfg().applicationSecret) return fail(reply, 401, 9300, 'Invalid application key or secret');
    const accessToken = randomUUID();
    const expiresIn = 1800;
    const expiresAt = Math.floor(ctx.now().getTime() / 1000) + expiresIn;
    await tokens.set(accessToken, expiresAt * 1000);
    return reply.send({ status: { code: 1000, description: 'Success' }, data: { accessToken, tokenType: 'Bearer', expiresIn, expiresAt } });
  });

  app.post('/v1/payment/qrcode/create', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amount = parseAmount(str(b.amount));
    const refOk = (v: unknown, required: boolean) => (v === undefined && !required) || /^[A-Z0-9]{1,20}$/u.test(str(v));
    if (b.qrType !== 'PP' || b.ppType !== 'BILLERID') return fail(reply, 400, 4101, 'qrType PP with ppType BILLERID only in this sandbox');
    if (b.ppId !== cfg().billerId) return fail(reply, 400, 4101, 'ppId is invalid');
    if (amount === null || amount <= 0 || !/^\d+\.\d{2}$/u.test(str(b.amount))) return fail(reply, 400, 4101, 'amount is invalid');
    if (!refOk(b.ref1, true) || !refOk(b.ref2, true) || !refOk(b.ref3, true)) return fail(reply, 400, 4101, 'ref1/ref2/ref3 must be A-Z 0-9, up to 20');
    const rec: QrRec = { ref1: str(b.ref1), ref2: str(b.ref2), ref3: str(b.ref3), amount, payload: '', createdAt: ctx.now().toISOString() };
    rec.payload = buildPromptPayPayload({ kind: 'billPayment', billerId: cfg().billerId, ref1: rec.ref1, ref2: rec.ref2 }, { amount, terminalLabel: rec.ref3 });
    await qrs.set(`${rec.ref1}|${rec.ref2}`, rec);
    const png = await qrPng(rec.payload);
    return reply.send({ status: { code: 1000, description: 'Success' }, data: { qrRawData: rec.payload, qrImage: png.toString('base64') } });
  });

  app.get('/v1/payment/billpayment/inquiry', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const q = req.query as Record<string, string | undefined>;
    if (q.eventCode !== '00300100' || !q.transactionDate || !q.billerId || !q.reference1) return fail(reply, 400, 4101, 'eventCode, transactionDate, billerId and reference1 are required');
    const found = (await txns.values())
      .filter((t) => t.billerId === q.billerId && t.date === q.transactionDate && t.billPaymentRef1 === q.reference1 && (!q.reference2 || t.billPaymentRef2 === q.reference2))
      .map(({ billerId: _b, date: _d, ...t }) => t);
    return reply.send({ status: { code: 1000, description: 'Success' }, data: found });
  });

  async function pay(ref1: string, ref2: string, amountOverride: number | null) {
    const qr = await qrs.get(`${ref1}|${ref2}`);
    if (!qr) return null;
    const now = ctx.now();
    const t = {
      eventCode: '00300100',
      transactionType: 'Domestic Transfers',
      transactionId: newId('', 10).toUpperCase(),
      amount: toDecimalString(amountOverride ?? qr.amount),
      transactionDateandTime: new Date(now.getTime() + 7 * 3600_000).toISOString().replace('Z', '+07:00'),
      billPaymentRef1: qr.ref1,
      billPaymentRef2: qr.ref2,
      billPaymentRef3: qr.ref3,
      payeeProxyId: cfg().billerId,
      currencyCode: '764',
      billerId: cfg().billerId,
      date: bangkokDate(now),
    };
    await txns.set(t.transactionId, t);
    const { billerId: _b, date: _d, ...pub } = t;
    const body = JSON.stringify({
      payeeProxyType: 'BILLERID',
      payeeAccountNumber: '0987654321',
      payeeName: 'Sandbox Merchant',
      payerProxyId: '0812345678',
      payerProxyType: 'MSISDN',
      payerAccountNumber: '1234567890',
      payerName: 'Sandbox Payer',
      sendingBankCode: '014',
      receivingBankCode: '014',
      channelCode: 'PMH',
      ...pub,
    });
    const delivery = await ctx.deliver({ provider: 'scb', url: callbackUrl(), method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { transaction: pub, delivery };
  }

  // --- Sandbox controls: the customer's bank app ---
  app.post('/control/pay', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amount = b.amount === undefined ? null : parseAmount(str(b.amount));
    const r = await pay(str(b.ref1), str(b.ref2), amount);
    if (!r) return reply.code(404).send({ error: 'no QR with these references' });
    return reply.send(r);
  });

  app.get('/pay', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const list = (await qrs.values()).filter((r) => !q.ref1 || r.ref1 === q.ref1).slice(-10);
    const rows = list
      .map(
        (r) => `<div class="box"><p>Ref1 ${escapeHtml(r.ref1)} / Ref2 ${escapeHtml(r.ref2)} — ${toDecimalString(r.amount)} THB</p>
<form method="post" action="pay"><input type="hidden" name="ref1" value="${escapeHtml(r.ref1)}"><input type="hidden" name="ref2" value="${escapeHtml(r.ref2)}"><button>Pay</button></form></div>`,
      )
      .join('');
    return reply.type('text/html').send(page('SCB sandbox bank app', `<h1>Bank app (sandbox)</h1>${rows || '<p>No QR yet.</p>'}`));
  });

  app.post('/pay', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const r = await pay(str(b.ref1), str(b.ref2), null);
    return reply.type('text/html').send(page('SCB sandbox', r ? `<h1>Paid</h1><p>Transaction ${escapeHtml(r.transaction.transactionId)}</p>` : '<h1>No such QR</h1>'));
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'scb') }));
}
