/**
 * 2C2P emulator (/sandbox/2c2p):
 *  - GET /my2c2p.js: the browser script that encrypts the card (RSA-OAEP with the gateway's key,
 *    like 2C2P's my2c2p.js) into encryptedCardInfo / maskedCardInfo / expMonthCardInfo / expYearCardInfo.
 *  - POST /SecurePayment/PaymentAuth.aspx: the secure payment page the signed card form posts to
 *    (hash checked, card decrypted, 3-D Secure pass / fail), then the signed base64 XML
 *    paymentResponse posted server-to-server to our backend URL; the browser goes to the front URL.
 *  - POST /PaymentActionV2/PaymentAction.aspx: Payment Action API inquiry (processType I) of a card-form
 *    payment by invoiceNo, from the gateway's own record; signed base64 XML in and out.
 *  - PGW v4: /payment/4.x/paymentToken (JWS in, JWS out) -> hosted page /payment/4.x/pay/:token
 *    (card or installments, pay / cancel) -> signed JWT to backendReturnUrl; /payment/4.x/paymentInquiry.
 * State (sessions, used codes, the gateway's key pair) is in the database (./store.ts): every
 * process encrypts and decrypts cards with the same key.
 */
import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { signHs256, verifyHs256 } from '../jwt';
import { CARD_FORM_REQUEST_FIELDS, CARD_FORM_RESPONSE_FIELDS, PAYMENT_ACTION_REQUEST_FIELDS, PAYMENT_ACTION_RESPONSE_FIELDS, PAYMENT_ACTION_VERSION, parseFlatXml, signFields, toFlatXml, type TwoC2pResult } from '../twoc2p';
import { safeEqual } from '../http';
import { luhnValid, twoc2pOutcome, validExpiry } from './cards';
import { acceptForms, escapeHtml, newId, page, str, type SandboxContext } from './common';

interface FormSession {
  fields: Record<string, string>;
  done: boolean;
  decision: Decision;
  /** The PaymentResponse sent to the merchant (once 3-D Secure is over). */
  result?: Record<string, string>;
}

type Decision = { ok: boolean; code: string; desc: string; masked: string };

interface LinkSession {
  token: string;
  req: Record<string, unknown>;
  result: TwoC2pResult | null;
}

/** my2c2p.js-compatible: My2c2p.getEncrypted(form, cb) and My2c2p.onSubmitForm(formId, cb). */
function my2c2pScript(spki: string): string {
  return `/* my2c2p-compatible card encryption for the loopback sandbox. */
(function(){var KEY='${spki}';
function b64(buf){var s='';var a=new Uint8Array(buf);for(var i=0;i<a.length;i++)s+=String.fromCharCode(a[i]);return btoa(s)}
function raw(b){var s=atob(b);var a=new Uint8Array(s.length);for(var i=0;i<s.length;i++)a[i]=s.charCodeAt(i);return a.buffer}
function val(f,n){var e=f.querySelector('[data-encrypt="'+n+'"]');return e?String(e.value).replace(/\\s+/g,''):''}
function enc(card){return crypto.subtle.importKey('spki',raw(KEY),{name:'RSA-OAEP',hash:'SHA-256'},false,['encrypt']).then(function(k){
return crypto.subtle.encrypt({name:'RSA-OAEP'},k,new TextEncoder().encode(JSON.stringify(card)))}).then(function(c){var n=card.number;
return {encryptedCardInfo:b64(c),maskedCardInfo:n.slice(0,6)+'XXXXXX'+n.slice(-4),expMonthCardInfo:('0'+card.month).slice(-2),expYearCardInfo:String(card.year)}})}
window.My2c2p={encrypt:enc,getEncrypted:function(form,cb){var f=typeof form==='string'?document.getElementById(form):form;
var card={number:val(f,'cardnumber'),month:val(f,'month'),year:val(f,'year'),cvv:val(f,'cvv')};
if(!/^\\d{12,19}$/.test(card.number)){cb(null,{errCode:1,errDesc:'Invalid card number'});return}
enc(card).then(function(r){cb(r,null)},function(e){cb(null,{errCode:9,errDesc:String(e)})})},
onSubmitForm:function(id,cb){var f=document.getElementById(id);f.addEventListener('submit',function(ev){ev.preventDefault();
window.My2c2p.getEncrypted(f,function(r,err){if(err){cb(err.errCode,err.errDesc);return}
for(var k in r){var i=f.querySelector('input[name="'+k+'"]');if(!i){i=document.createElement('input');i.type='hidden';i.name=k;f.appendChild(i)}i.value=r[k]}
cb(0,'');})})}};})();`;
}

function cardInputs(ipp: boolean): string {
  return `<label>Card number<input name="cardnumber" autocomplete="off" inputmode="numeric" maxlength="19" value="4111111111111111"></label>
<label>Month (MM)<input name="month" maxlength="2" value="12"></label><label>Year (YYYY)<input name="year" maxlength="4" value="2030"></label>
<label>CVV<input name="cvv" type="password" maxlength="4" value="123"></label>
${ipp ? '<label>Installment months<select name="period"><option>3</option><option>6</option><option>10</option></select></label>' : ''}
<button name="action" value="pay" data-testid="2c2p-pay">Pay</button><button name="action" value="cancel" data-testid="2c2p-cancel">Cancel</button>`;
}

/** Outcome of the card fields typed on a sandbox page (the number is used here and dropped). */
function decide(body: Record<string, unknown>, now: Date): Decision {
  const number = str(body.cardnumber).replace(/[\s-]/gu, '');
  const masked = number.length >= 10 ? `${number.slice(0, 6)}XXXXXX${number.slice(-4)}` : '';
  if (str(body.action) === 'cancel') return { ok: false, code: 'cancel', desc: 'Transaction is cancelled', masked };
  if (!luhnValid(number)) return { ok: false, code: '4101', desc: 'Invalid card number', masked };
  if (!validExpiry(Number(body.month), Number(body.year), now)) return { ok: false, code: '4102', desc: 'Invalid expiry date', masked };
  const o = twoc2pOutcome(number);
  return o.kind === 'fail' ? { ok: false, code: o.code, desc: o.message, masked } : { ok: true, code: '00', desc: 'Approved', masked };
}

export async function twoc2pSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.twoc2p;
  const base = () => `${ctx.browserOrigin()}/sandbox/2c2p`;
  const forms = ctx.table<FormSession>('2c2p', 'form');
  const usedCodes = ctx.table<true>('2c2p', 'code');
  // The gateway's card-encryption key pair (real 2C2P embeds its public key in my2c2p.js): made
  // by the first process, read from the database by every other one.
  const keys = ctx.table<{ pkcs8: string }>('2c2p', 'key');
  const made = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await keys.insert('gateway', { pkcs8: made });
  const privateKey = createPrivateKey((await keys.get('gateway'))?.pkcs8 ?? made);
  const publicSpki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  const links = ctx.table<LinkSession>('2c2p', 'link');
  /** invoiceNo → payment token. */
  const byInvoice = ctx.table<string>('2c2p', 'invoice');
  acceptForms(app);

  // ---------- The card form (3DS API 9.x secure payment page) ----------
  const frontUrl = () => process.env.TWOC2P_SANDBOX_FRONTEND_URL || `${ctx.browserOrigin()}/myaccount/student/order`;
  const backUrl = () => process.env.TWOC2P_SANDBOX_BACKEND_URL || `${ctx.selfOrigin()}/api/payment/2c2p/backend-return`;

  app.get('/my2c2p.js', async (_req, reply) => reply.type('application/javascript').header('cache-control', 'no-store').send(my2c2pScript(publicSpki)));
  app.get('/control/public-key', async () => ({ spki: publicSpki }));

  app.post('/SecurePayment/PaymentAuth.aspx', { logLevel: 'silent' }, async (req, reply) => {
    const f = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
    const expected = signFields(f, CARD_FORM_REQUEST_FIELDS, cfg().secretKey);
    if (f.merchantID !== cfg().merchantId || !safeEqual((f.hashValue ?? '').toUpperCase(), expected)) {
      return reply.code(400).type('text/html').send(page('2C2P error', '<h1>Invalid hash value</h1><p>respCode 9012</p>'));
    }
    if (f.version !== '9.9' || !/^\d{12}$/u.test(f.amt ?? '') || !f.currencyCode || !f.uniqueTransactionCode) {
      return reply.code(400).type('text/html').send(page('2C2P error', '<h1>Invalid request</h1>'));
    }
    if (!(await usedCodes.insert(f.uniqueTransactionCode, true))) return reply.code(400).type('text/html').send(page('2C2P error', '<h1>Duplicate uniqueTransactionCode</h1>'));
    let card: Record<string, unknown> = {};
    try {
      const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(f.encCardData ?? '', 'base64'));
      card = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
    } catch {
      card = {};
    }
    const d = decide({ cardnumber: card.number, month: card.month, year: card.year, action: 'pay' }, ctx.now());
    const sid = newId('ps_');
    await forms.set(sid, { fields: f, done: false, decision: d });
    if (!d.ok) return finishCardForm(sid, false, reply);
    const amt = f.amt ?? '';
    const amount = `${Number(amt.slice(0, 10))}.${amt.slice(10)}`;
    return reply.type('text/html').send(
      page(
        '2C2P 3-D Secure',
        `<h1>3-D Secure verification</h1><div class="box"><p>${escapeHtml(f.desc ?? '')}<br>Amount ${escapeHtml(amount)} (${escapeHtml(f.currencyCode)})<br>Card ${escapeHtml(d.masked)}</p>
<form method="post" action="${escapeHtml(`${base()}/SecurePayment/3ds/${sid}`)}"><button name="result" value="pass" data-testid="3ds-pass">Pass</button><button name="result" value="fail" data-testid="3ds-fail">Fail</button></form></div>`,
      ),
    );
  });

  app.post('/SecurePayment/3ds/:sid', async (req, reply) => {
    const sid = (req.params as { sid: string }).sid;
    return finishCardForm(sid, str(((req.body ?? {}) as Record<string, unknown>).result) === 'pass', reply);
  });

  async function finishCardForm(sid: string, passed: boolean, reply: FastifyReply) {
    // Finished once, under the session's row lock (also across processes).
    const took = await forms.update(sid, (x) => (x.done ? false : (x.done = true)));
    if (!took?.result) return reply.code(404).type('text/html').send(page('2C2P', '<h1>Session not found or already used</h1>'));
    const s = took.value;
    const f = s.fields;
    const d = s.decision;
    const ok = d.ok && passed;
    const now = ctx.now();
    const res: Record<string, string> = {
      version: '9.9',
      timeStamp: now.toISOString(),
      merchantID: f.merchantID ?? '',
      respCode: ok ? '00' : d.ok ? '4300' : d.code,
      pan: d.masked,
      amt: f.amt ?? '',
      uniqueTransactionCode: f.uniqueTransactionCode ?? '',
      tranRef: ok ? newId('', 6) : '',
      approvalCode: ok ? String(100000 + Math.floor(Math.random() * 899999)) : '',
      refNumber: ok ? newId('', 5) : '',
      eci: ok ? '05' : '07',
      dateTime: now.toISOString(),
      status: ok ? 'A' : d.ok ? 'AR' : 'PF',
      failReason: ok ? '' : d.ok ? '3-D Secure authentication failed' : d.desc,
      userDefined1: '',
    };
    res.hashValue = signFields(res, CARD_FORM_RESPONSE_FIELDS, cfg().secretKey);
    s.result = res;
    await forms.set(sid, s); // the gateway's record of the result, read by the inquiry (any process)
    const paymentResponse = Buffer.from(toFlatXml('PaymentResponse', res), 'utf8').toString('base64');
    await ctx.deliver({ provider: '2c2p', url: backUrl(), method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ paymentResponse }).toString() });
    const u = new URL(frontUrl());
    u.searchParams.set('uniqueTransactionCode', res.uniqueTransactionCode ?? '');
    u.searchParams.set('status', res.status ?? '');
    return reply.redirect(u.toString(), 303);
  }

  // ---------- Payment Action API: inquiry (processType I) of a card-form payment ----------
  app.post('/PaymentActionV2/PaymentAction.aspx', async (req, reply) => {
    const raw = str(((req.body ?? {}) as Record<string, unknown>).paymentRequest);
    const q = parseFlatXml(Buffer.from(raw, 'base64').toString('utf8'));
    const now = ctx.now();
    const answer = (fields: Record<string, string>) => {
      const out: Record<string, string> = { version: PAYMENT_ACTION_VERSION, timeStamp: now.toISOString(), processType: q.processType ?? '', invoiceNo: q.invoiceNo ?? '', ...fields };
      out.hashValue = signFields(out, PAYMENT_ACTION_RESPONSE_FIELDS, cfg().secretKey);
      return reply.type('text/plain').send(Buffer.from(toFlatXml('PaymentProcessResponse', out), 'utf8').toString('base64'));
    };
    if (q.merchantID !== cfg().merchantId || !safeEqual((q.hashValue ?? '').toUpperCase(), signFields(q, PAYMENT_ACTION_REQUEST_FIELDS, cfg().secretKey))) {
      return answer({ respCode: '99', respDesc: 'Invalid hash value' });
    }
    if (q.processType !== 'I') return answer({ respCode: '99', respDesc: 'Only inquiry (I) is emulated' });
    // The gateway's own record of the card-form payment (the forms it served), not anything the merchant was sent.
    const s = (await forms.values()).find((f) => f.fields.uniqueTransactionCode === q.invoiceNo);
    if (!s) return answer({ respCode: '15', respDesc: 'Transaction not found' });
    const r = s.result;
    if (!r) return answer({ respCode: '00', respDesc: 'Success', amount: s.fields.amt ?? '', status: 'IP', maskedPan: s.decision.masked });
    return answer({
      respCode: '00',
      respDesc: 'Success',
      amount: r.amt ?? '',
      status: r.status ?? '',
      approvalCode: r.approvalCode ?? '',
      referenceNo: r.tranRef ?? '',
      transactionDateTime: r.dateTime ?? '',
      paidChannel: 'CC',
      maskedPan: r.pan ?? '',
      eci: r.eci ?? '',
    });
  });

  // ---------- PGW v4.x ----------
  function signed(payload: Record<string, unknown>) {
    return { payload: signHs256(payload, cfg().secretKey) };
  }

  app.post('/payment/4.x/paymentToken', async (req, reply) => {
    const token = str(((req.body ?? {}) as Record<string, unknown>).payload);
    const p = verifyHs256<Record<string, unknown>>(token, cfg().secretKey);
    if (!p) return reply.send({ respCode: '9042', respDesc: 'Invalid signature' });
    if (p.merchantID !== cfg().merchantId) return reply.send({ respCode: '9015', respDesc: 'Invalid merchant ID' });
    const amount = Number(p.amount);
    if (!Number.isFinite(amount) || amount <= 0) return reply.send(signed({ respCode: '9041', respDesc: 'Invalid amount' }));
    if (!/^[A-Za-z0-9]{1,50}$/u.test(str(p.invoiceNo))) return reply.send(signed({ respCode: '9012', respDesc: 'Invalid invoiceNo' }));
    const paymentToken = newId('kSAops9Zwhos8hSTSeLTU', 12);
    if (!(await byInvoice.insert(str(p.invoiceNo), paymentToken))) return reply.send(signed({ respCode: '9014', respDesc: 'Duplicate invoiceNo' }));
    const s: LinkSession = { token: paymentToken, req: p, result: null };
    await links.set(paymentToken, s);
    return reply.send(signed({ webPaymentUrl: `${base()}/payment/4.x/pay/${paymentToken}`, paymentToken, respCode: '0000', respDesc: 'Success' }));
  });

  app.get('/payment/4.x/pay/:token', async (req, reply) => {
    const s = await links.get((req.params as { token: string }).token);
    if (!s) return reply.code(404).type('text/html').send(page('2C2P', '<h1>Payment token not found</h1>'));
    if (s.result) return reply.type('text/html').send(page('2C2P', `<h1>Already processed: ${escapeHtml(s.result.respDesc)}</h1>`));
    const ipp = Array.isArray(s.req.paymentChannel) && (s.req.paymentChannel as unknown[]).includes('IPP');
    return reply.type('text/html').send(
      page(
        '2C2P payment',
        `<h1>2C2P ${ipp ? 'installment ' : ''}payment</h1><div class="box"><p>${escapeHtml(str(s.req.description))}<br>Amount ${escapeHtml(str(s.req.amount))} ${escapeHtml(str(s.req.currencyCode))}</p>
<form method="post" action="${escapeHtml(`${base()}/payment/4.x/pay/${s.token}`)}">${cardInputs(ipp)}</form></div>`,
      ),
    );
  });

  app.post('/payment/4.x/pay/:token', { logLevel: 'silent' }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const d = decide(body, ctx.now());
    // The result is set once, under the session's row lock (also across processes).
    const took = await links.update((req.params as { token: string }).token, (x) => {
      if (x.result) return false;
      x.result = resultOf(x, d, body);
      return true;
    });
    if (!took?.result) return reply.code(404).type('text/html').send(page('2C2P', '<h1>Payment token not found or already used</h1>'));
    const s = took.value as LinkSession & { result: TwoC2pResult };
    const backend = str(s.req.backendReturnUrl);
    if (backend) await ctx.deliver({ provider: '2c2p', url: backend, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed(s.result)) });
    const front = str(s.req.frontendReturnUrl);
    if (!front) return reply.type('text/html').send(page('2C2P', `<h1>${escapeHtml(d.desc)}</h1>`));
    const u = new URL(front);
    u.searchParams.set('invoiceNo', s.result.invoiceNo);
    u.searchParams.set('respCode', s.result.respCode);
    return reply.redirect(u.toString(), 303);
  });

  function resultOf(s: LinkSession, d: Decision, body: Record<string, unknown>): TwoC2pResult {
    const ipp = Array.isArray(s.req.paymentChannel) && (s.req.paymentChannel as unknown[]).includes('IPP');
    return {
      merchantID: cfg().merchantId,
      invoiceNo: str(s.req.invoiceNo),
      amount: Number(s.req.amount),
      currencyCode: str(s.req.currencyCode),
      cardNo: d.masked,
      tranRef: d.ok ? newId('', 6) : '',
      referenceNo: d.ok ? newId('', 5) : '',
      approvalCode: d.ok ? String(100000 + Math.floor(Math.random() * 899999)) : '',
      eci: d.ok ? '05' : '',
      transactionDateTime: ctx.now().toISOString(),
      channelCode: ipp ? 'IPP' : 'VI',
      ...(ipp ? { installmentPeriod: Number(str(body.period) || 3), interestType: str(s.req.interestType) } : {}),
      respCode: d.ok ? '0000' : d.code === 'cancel' ? '0003' : d.code,
      respDesc: d.desc,
    };
  }

  app.post('/payment/4.x/paymentInquiry', async (req, reply) => {
    const p = verifyHs256<Record<string, unknown>>(str(((req.body ?? {}) as Record<string, unknown>).payload), cfg().secretKey);
    if (!p) return reply.send({ respCode: '9042', respDesc: 'Invalid signature' });
    const token = await byInvoice.get(str(p.invoiceNo));
    const s = token === undefined ? undefined : await links.get(token);
    if (!s) return reply.send(signed({ merchantID: cfg().merchantId, invoiceNo: str(p.invoiceNo), respCode: '4005', respDesc: 'Transaction not found' }));
    if (!s.result) {
      return reply.send(signed({ merchantID: cfg().merchantId, invoiceNo: str(p.invoiceNo), amount: Number(s.req.amount), currencyCode: str(s.req.currencyCode), respCode: '0001', respDesc: 'Transaction is pending' }));
    }
    return reply.send(signed(s.result));
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === '2c2p') }));

}
