/**
 * PaySolutions emulator (/sandbox/paysolutions), imitating PaySolutions' published API
 * (docs/providers/paysolutions.md): the hosted form /epaylink/payment.aspx (form POST, 8-digit
 * merchantid, numeric refno up to 12 digits, total in baht; the page offers pay / decline /
 * cancel), the unsigned postback (form POST) to the merchant's postbackurl, and the Inquiry API
 * /order/orderdetailpost (headers apikey, merchantSecretKey, merchantId = the last 5 digits),
 * which answers ONE object for a completed payment and nothing (an empty 200) otherwise.
 */
import type { FastifyInstance } from 'fastify';
import { parseAmount, toDecimalString } from '../../../domain/money';
import { PAYSOLUTIONS_PAID } from '../paysolutions';
import { acceptForms, escapeHtml, newId, page, str, type SandboxContext } from './common';

interface Txn {
  orderNo: string;
  refno: string;
  total: number;
  status: string;
  statusName: string;
  fields: Record<string, string>;
}

export async function paysolutionsSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.paysolutions;
  const base = () => `${ctx.browserOrigin()}/sandbox/paysolutions`;
  const sessions = ctx.table<{ fields: Record<string, string>; used: boolean }>('paysolutions', 'session');
  const txns = ctx.table<Txn>('paysolutions', 'txn');
  acceptForms(app);

  app.post('/epaylink/payment.aspx', async (req, reply) => {
    const f = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
    const total = parseAmount(f.total ?? '');
    if (f.merchantid !== cfg().merchantId) return reply.code(400).type('text/html').send(page('PaySolutions', '<h1>Merchant not found</h1>'));
    if (!/^\d{1,12}$/u.test(f.refno ?? '') || total === null || total <= 0 || f.cc !== '00') return reply.code(400).type('text/html').send(page('PaySolutions', '<h1>Invalid request</h1>'));
    // `lang` (form: optional, 2 characters), in the URL and the form alike: TH or EN.
    const lang = f.lang ?? (req.query as { lang?: string }).lang ?? 'TH';
    if (lang !== 'TH' && lang !== 'EN') return reply.code(400).type('text/html').send(page('PaySolutions', '<h1>Invalid language</h1>'));
    const sid = newId('pss_');
    await sessions.set(sid, { fields: f, used: false });
    return reply.type('text/html').send(
      page(
        'PaySolutions',
        `<h1>PaySolutions</h1><div class="box" data-lang="${lang}" lang="${lang === 'EN' ? 'en' : 'th'}"><p>${escapeHtml(f.productdetail ?? '')}<br>Ref ${escapeHtml(f.refno ?? '')} — ${escapeHtml(toDecimalString(total))} THB</p>
<form method="post" action="${escapeHtml(`${base()}/epaylink/pay/${sid}`)}"><button name="result" value="pay" data-testid="ps-pay">Pay</button><button name="result" value="decline" data-testid="ps-decline">Decline</button><button name="result" value="cancel" data-testid="ps-cancel">Cancel</button></form></div>`,
      ),
    );
  });

  app.post('/epaylink/pay/:sid', async (req, reply) => {
    const sid = (req.params as { sid: string }).sid;
    // Used once, under the session's row lock (also across processes).
    const took = await sessions.update(sid, (x) => (x.used ? false : (x.used = true)));
    if (!took?.result) return reply.code(404).type('text/html').send(page('PaySolutions', '<h1>Session not found or already used</h1>'));
    const f = took.value.fields;
    const result = str(((req.body ?? {}) as Record<string, unknown>).result);
    const total = parseAmount(f.total ?? '') ?? 0;
    const status = result === 'pay' ? PAYSOLUTIONS_PAID : result === 'decline' ? 'NS' : 'CC';
    const t: Txn = { orderNo: newId('', 5), refno: f.refno ?? '', total, status, statusName: status === PAYSOLUTIONS_PAID ? 'COMPLETE' : status === 'NS' ? 'NOT SUCCESS' : 'CANCEL', fields: f };
    await txns.set(t.orderNo, t);
    if (f.postbackurl) {
      const body = new URLSearchParams({
        refno: t.refno,
        merchantid: f.merchantid ?? '',
        customeremail: f.customeremail ?? '',
        productdetail: f.productdetail ?? '',
        total: toDecimalString(total),
        cardtype: 'V',
        status,
        orderno: t.orderNo,
      }).toString();
      await ctx.deliver({ provider: 'paysolutions', url: f.postbackurl, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    }
    if (f.returnurl) return reply.redirect(f.returnurl, 303);
    return reply.type('text/html').send(page('PaySolutions', `<h1>${escapeHtml(t.statusName)}</h1>`));
  });

  app.post('/order/orderdetailpost', async (req, reply) => {
    const h = req.headers;
    const mid = cfg().merchantId.slice(-5);
    if (h.apikey !== cfg().apiKey || h.merchantsecretkey !== cfg().secretKey) return reply.code(401).send({ code: 'unauthorized', message: 'Invalid apikey or merchantSecretKey' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (str(h.merchantid) !== mid || str(b.merchantId ?? b.merchantID) !== mid) return reply.code(400).send({ code: 'invalid_merchant', message: 'merchantId must be the last 5 digits of the merchant id' });
    const refno = str(b.refno ?? b.refNo);
    // One object for the completed payment; nothing when the payment did not succeed.
    const t = (await txns.values()).find((x) => x.refno === refno && x.status === PAYSOLUTIONS_PAID);
    if (!t) return reply.code(200).type('application/json').send('');
    return reply.send({
      ReferenceNo: t.refno,
      OrderNo: t.orderNo,
      MerchantID: cfg().merchantId,
      ProductDetail: t.fields.productdetail ?? '',
      Total: Number(toDecimalString(t.total)),
      CardType: 'V',
      CustomerEmal: t.fields.customeremail ?? '',
      CurrencyCode: '00',
      Status: t.status,
      StatusName: t.statusName,
      PostBackUrl: t.fields.postbackurl ?? '',
      PostBackParameters: '',
      PostBackMethod: 'P',
      PostBackCompleted: 'true',
      OrderDateTime: ctx.now().toISOString(),
      installment: null,
    });
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'paysolutions') }));
}
