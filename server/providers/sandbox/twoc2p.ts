/**
 * 2C2P emulator (/sandbox/2c2p), imitating 2C2P's published API (docs/providers/2c2p.md):
 *  - GET /my2c2p.js: the browser script that encrypts the card (RSA-OAEP with the gateway's key,
 *    like 2C2P's my2c2p.js) into encryptedCardInfo / maskedCardInfo / expMonthCardInfo / expYearCardInfo.
 *  - POST /SecurePayment/PaymentAuth.aspx: the 3DS API secure payment page. Takes ONE form field
 *    `paymentRequest` (base64 of <PaymentRequest><version/><payload/><signature/></PaymentRequest>,
 *    signature = upper-case HMAC-SHA256 of the payload), decrypts the card, shows 3-D Secure (Pass /
 *    Fail), then posts the result in the same envelope (`paymentResponse`, root PaymentResponse)
 *    server to server to the backend URL and sends the browser to the frontend URL. The same signed
 *    request posted again (a reload, the back button) goes on with the same payment; a different
 *    request reusing the code gets a page in the buyer's language with a way back to the shop.
 *  - POST /PaymentActionV2/PaymentProcess.aspx: the Payment Action API (version 3.4, HMAC-SHA1
 *    hashValue, base64 XML in and out) as 2C2P's Magento 2 plugin calls it: I inquiry, V void,
 *    R refund, S settle, of card-form and payment-link transactions alike.
 *  - PGW 4.3: /payment/4.3/paymentToken (JWT in, JWT out) -> hosted page /payment/4.3/pay/:token
 *    (card or installments, pay / cancel) -> `{ payload }` JWT to backendReturnUrl;
 *    /payment/4.3/paymentInquiry.
 *  - Control: POST /control/settle/:invoiceNo (A -> S, as 2C2P's end-of-day settlement), GET
 *    /control/public-key, GET /control/deliveries.
 * State (sessions, transactions, the gateway's key pair) is in the database (./store.ts).
 */
import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromMajor, toDecimalString } from '../../../domain/money';
import { signHs256, verifyHs256 } from '../jwt';
import {
  CARD_FORM_REQUEST_FIELDS,
  PAYMENT_ACTION_VERSION,
  fromBase64Text,
  openEnvelope,
  parseFlatXml,
  paymentActionRequestHash,
  paymentActionResponseHash,
  sealEnvelope,
  toFlatXml,
} from '../twoc2p';
import { safeEqual } from '../http';
import { luhnValid, twoc2pOutcome, validExpiry } from './cards';
import { acceptForms, autoPostPage, escapeHtml, newId, page, str, type SandboxContext } from './common';

type Decision = { ok: boolean; code: string; desc: string; masked: string };

/** A card-form payment at the gateway, keyed by its uniqueTransactionCode. */
interface FormSession {
  /** The signed paymentRequest exactly as posted (a repost of the same one is the same payment). */
  request: string;
  fields: Record<string, string>;
  done: boolean;
  decision: Decision;
  /** The PaymentResponse fields sent to the merchant (once 3-D Secure is over). */
  result?: Record<string, string>;
}

interface LinkSession {
  token: string;
  req: Record<string, unknown>;
  result: Record<string, unknown> | null;
}

/** The gateway's record of one transaction, as the Payment Action API reports and changes it. */
interface Txn {
  invoiceNo: string;
  /** Minor units. */
  amount: number;
  /** A approved, S settled, V voided, RF refunded, PF failed, AR 3-D Secure rejected, IP in progress, C cancelled. */
  status: string;
  refunded: number;
  approvalCode: string;
  referenceNo: string;
  refundReferenceNo: string;
  transactionDateTime: string;
  maskedPan: string;
  eci: string;
  paidChannel: string;
}

/** yyyyMMddHHmmss (PGW 4.3 transactionDateTime). */
function stamp14(d: Date): string {
  return d.toISOString().replace(/[-:T]/gu, '').slice(0, 14);
}
/** ddMMyyHHmmss (timeStamp in 2C2P's Payment Action examples, e.g. 250221155131). */
function stamp12(d: Date): string {
  const s = stamp14(d);
  return `${s.slice(6, 8)}${s.slice(4, 6)}${s.slice(2, 4)}${s.slice(8, 14)}`;
}

/** The buyer's language for sandbox pages the shop's buyer may land on. */
function langOf(req: FastifyRequest): 'th' | 'en' {
  const al = String(req.headers['accept-language'] ?? '');
  return /^th\b/iu.test(al.trim()) ? 'th' : 'en';
}

const DUPLICATE_TEXT = {
  th: {
    title: 'รายการนี้ถูกส่งไปแล้ว',
    body: 'คำขอชำระเงินนี้ใช้รหัสรายการที่ถูกใช้ไปแล้ว จึงไม่มีการตัดเงินซ้ำ กรุณากลับไปที่รายการคำสั่งซื้อของคุณเพื่อดูสถานะ หรือเริ่มชำระเงินใหม่',
    back: 'กลับไปที่คำสั่งซื้อของฉัน',
  },
  en: {
    title: 'This payment was already sent',
    body: 'This payment request reuses a transaction code that was already used, so nothing was charged again. Go back to your orders to see its status or to pay again.',
    back: 'Back to my orders',
  },
} as const;

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
  if (!luhnValid(number)) return { ok: false, code: '4014', desc: 'Invalid card number', masked };
  if (!validExpiry(Number(body.month), Number(body.year), now)) return { ok: false, code: '4054', desc: 'Expired card', masked };
  const o = twoc2pOutcome(number);
  return o.kind === 'fail' ? { ok: false, code: o.code, desc: o.message, masked } : { ok: true, code: '00', desc: 'Approved', masked };
}

export async function twoc2pSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.twoc2p;
  const base = () => `${ctx.browserOrigin()}/sandbox/2c2p`;
  const forms = ctx.table<FormSession>('2c2p', 'cardform');
  const txns = ctx.table<Txn>('2c2p', 'txn');
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

  // The card form's return URLs are set in 2C2P's merchant portal, not in the request.
  const frontUrl = () => process.env.TWOC2P_SANDBOX_FRONTEND_URL || `${ctx.browserOrigin()}/api/payment/2c2p/frontend-return`;
  const ordersUrl = () => `${ctx.browserOrigin()}/myaccount/student/order`;
  const backUrl = () => process.env.TWOC2P_SANDBOX_BACKEND_URL || `${ctx.selfOrigin()}/api/payment/2c2p/backend-return`;
  const errorPage = (reply: FastifyReply, code: number, title: string, detail: string) =>
    reply.code(code).type('text/html').send(page('2C2P error', `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`));

  app.get('/my2c2p.js', async (_req, reply) => reply.type('application/javascript').header('cache-control', 'no-store').send(my2c2pScript(publicSpki)));
  app.get('/control/public-key', async () => ({ spki: publicSpki }));

  // ---------- The card form (3DS API 9.x secure payment page) ----------
  function threeDsPage(reply: FastifyReply, s: FormSession) {
    const f = s.fields;
    const amt = f.amt ?? '';
    const amount = `${Number(amt.slice(0, 10))}.${amt.slice(10)}`;
    return reply
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(
        page(
          '2C2P 3-D Secure',
          `<h1>3-D Secure verification</h1><div class="box"><p>${escapeHtml(f.desc ?? '')}<br>Amount ${escapeHtml(amount)} (${escapeHtml(f.currencyCode ?? '')})<br>Card ${escapeHtml(s.decision.masked)}</p>
<form method="post" action="${escapeHtml(`${base()}/SecurePayment/3ds/${encodeURIComponent(f.uniqueTransactionCode ?? '')}`)}"><button name="result" value="pass" data-testid="3ds-pass">Pass</button><button name="result" value="fail" data-testid="3ds-fail">Fail</button></form></div>`,
        ),
      );
  }

  /**
   * The browser's way back to the shop once the gateway has the result (the same for every visit):
   * a form post of the signed `paymentResponse` to the frontend URL, as 2C2P does.
   */
  function toFront(reply: FastifyReply, result: Record<string, string>) {
    const paymentResponse = sealEnvelope('PaymentResponse', '9.9', toFlatXml('PaymentResponse', result), cfg().secretKey);
    return reply.type('text/html').header('cache-control', 'no-store').send(autoPostPage('2C2P', frontUrl(), { paymentResponse }));
  }

  app.post('/SecurePayment/PaymentAuth.aspx', { logLevel: 'silent' }, async (req, reply) => {
    const raw = str(((req.body ?? {}) as Record<string, unknown>).paymentRequest);
    const env = raw ? openEnvelope(raw, cfg().secretKey) : null;
    if (!env) return errorPage(reply, 400, 'Invalid signature', 'paymentRequest is missing or its signature does not verify.');
    const f = env.fields;
    if (!/^9\.\d+$/u.test(env.version)) return errorPage(reply, 400, 'Invalid version', `version ${env.version}`);
    if (f.merchantID !== cfg().merchantId) return errorPage(reply, 400, 'Invalid merchant', 'merchantID is not this merchant.');
    for (const k of ['uniqueTransactionCode', 'desc', 'amt', 'currencyCode', 'encCardData'] as const) if (!f[k]) return errorPage(reply, 400, 'Invalid request', `${k} is required`);
    if (!/^\d{12}$/u.test(f.amt ?? '') || !/^\d{3}$/u.test(f.currencyCode ?? '') || !/^[A-Za-z0-9]{1,20}$/u.test(f.uniqueTransactionCode ?? '')) {
      return errorPage(reply, 400, 'Invalid request', 'amt must be 12 digits, currencyCode 3 digits, uniqueTransactionCode 1-20 letters or digits.');
    }
    const code = f.uniqueTransactionCode!;
    let card: Record<string, unknown> = {};
    try {
      const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(f.encCardData ?? '', 'base64'));
      card = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
    } catch {
      card = {};
    }
    const known: Record<string, string> = {};
    for (const k of CARD_FORM_REQUEST_FIELDS) if (k !== 'encCardData' && f[k] !== undefined) known[k] = f[k];
    const fresh: FormSession = { request: raw, fields: known, done: false, decision: decide({ cardnumber: card.number, month: card.month, year: card.year, action: 'pay' }, ctx.now()) };
    if (!(await forms.insert(code, fresh))) {
      const s = await forms.get(code);
      // The same signed request again (a reload of the 3-D Secure page, the back button): the same payment goes on.
      if (s && s.request === raw) {
        if (s.done && s.result) return toFront(reply, s.result);
        if (!s.done) return threeDsPage(reply, s);
      }
      const t = DUPLICATE_TEXT[langOf(req)];
      return reply
        .code(400)
        .type('text/html')
        .send(page('2C2P', `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.body)}</p><p class="note">Duplicate uniqueTransactionCode</p><p><a href="${escapeHtml(ordersUrl())}" data-testid="2c2p-back-to-shop">${escapeHtml(t.back)}</a></p>`));
    }
    await txns.set(code, { ...emptyTxn(code, Number(f.amt)), status: 'IP', maskedPan: fresh.decision.masked });
    if (!fresh.decision.ok) return finishCardForm(code, false, reply);
    return threeDsPage(reply, fresh);
  });

  app.post('/SecurePayment/3ds/:code', async (req, reply) => {
    const code = (req.params as { code: string }).code;
    return finishCardForm(code, str(((req.body ?? {}) as Record<string, unknown>).result) === 'pass', reply);
  });

  function emptyTxn(invoiceNo: string, amount: number): Txn {
    return { invoiceNo, amount, status: 'IP', refunded: 0, approvalCode: '', referenceNo: '', refundReferenceNo: '', transactionDateTime: '', maskedPan: '', eci: '', paidChannel: '' };
  }

  async function finishCardForm(code: string, passed: boolean, reply: FastifyReply) {
    // Finished once, under the session's row lock (also across processes).
    const took = await forms.update(code, (x) => (x.done ? false : (x.done = true)));
    if (!took) return errorPage(reply, 404, 'Session not found', 'No payment with this code.');
    // Already finished (a reload of the 3-D Secure answer): the browser goes on to the shop, nothing is sent twice.
    if (!took.result) return took.value.result ? toFront(reply, took.value.result) : errorPage(reply, 409, 'Payment in progress', 'Try again in a moment.');
    const s = took.value;
    const f = s.fields;
    const d = s.decision;
    const ok = d.ok && passed;
    const now = ctx.now();
    const res: Record<string, string> = {
      version: '9.9',
      timeStamp: stamp12(now),
      merchantID: f.merchantID ?? '',
      respCode: ok ? '00' : d.ok ? '4081' : d.code,
      pan: d.masked,
      amt: f.amt ?? '',
      uniqueTransactionCode: code,
      tranRef: ok ? newId('', 4) : '',
      approvalCode: ok ? String(100000 + Math.floor(Math.random() * 899999)) : '',
      refNumber: ok ? newId('', 4) : '',
      eci: ok ? '05' : '07',
      dateTime: stamp14(now),
      status: ok ? 'A' : d.ok ? 'AR' : 'PF',
      failReason: ok ? 'Approved' : d.ok ? '3-D Secure authentication failed' : d.desc,
      userDefined1: '',
      userDefined2: '',
      userDefined3: '',
      userDefined4: '',
      userDefined5: '',
      paymentChannel: '001',
      processBy: 'VI',
      paymentScheme: 'VI',
    };
    s.result = res;
    await forms.set(code, s); // the gateway's record of the result (any process)
    await txns.set(code, {
      ...emptyTxn(code, Number(f.amt)),
      status: res.status!,
      approvalCode: res.approvalCode!,
      referenceNo: res.tranRef!,
      transactionDateTime: res.dateTime!,
      maskedPan: d.masked,
      eci: res.eci!,
      paidChannel: 'CC',
    });
    const paymentResponse = sealEnvelope('PaymentResponse', '9.9', toFlatXml('PaymentResponse', res), cfg().secretKey);
    await ctx.deliver({ provider: '2c2p', url: backUrl(), method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ paymentResponse }).toString() });
    return toFront(reply, res);
  }

  // ---------- Payment Action API (PaymentActionV2, version 3.4) ----------
  app.post('/PaymentActionV2/PaymentProcess.aspx', async (req, reply) => {
    const q = parseFlatXml(fromBase64Text(str(((req.body ?? {}) as Record<string, unknown>).paymentRequest)));
    const now = ctx.now();
    const answer = (fields: Partial<Record<string, string>>, t?: Txn) => {
      const out: Record<string, string> = {
        version: q.version || PAYMENT_ACTION_VERSION,
        timeStamp: stamp12(now),
        respCode: '',
        respDesc: '',
        processType: q.processType ?? '',
        invoiceNo: q.invoiceNo ?? '',
        amount: t ? toDecimalString(t.amount) : '',
        status: t?.status ?? '',
        approvalCode: t?.approvalCode ?? '',
        referenceNo: t?.referenceNo ?? '',
        transactionDateTime: t?.transactionDateTime ?? '',
        paidAgent: t && t.paidChannel ? 'VI' : '',
        paidChannel: t?.paidChannel ?? '',
        maskedPan: t?.maskedPan ?? '',
        eci: t?.eci ?? '',
        paymentScheme: t && t.paidChannel ? 'VI' : '',
        processBy: t && t.paidChannel ? 'VI' : '',
        refundReferenceNo: t?.refundReferenceNo ?? '',
        userDefined1: '',
        userDefined2: '',
        userDefined3: '',
        userDefined4: '',
        userDefined5: '',
        ...fields,
      };
      // The Magento 2 plugin compares the inquiry's hashValue with its own hash in lower case.
      out.hashValue = paymentActionResponseHash(out, cfg().secretKey).toLowerCase();
      return reply.type('text/plain').send(Buffer.from(toFlatXml('PaymentProcessResponse', out), 'utf8').toString('base64'));
    };
    if (q.merchantID !== cfg().merchantId || !safeEqual((q.hashValue ?? '').toUpperCase(), paymentActionRequestHash(q, cfg().secretKey))) {
      return answer({ respCode: '99', respDesc: 'Invalid hash value' });
    }
    const invoiceNo = q.invoiceNo ?? '';
    const t0 = await txns.get(invoiceNo);
    if (!t0) return answer({ respCode: '15', respDesc: 'Transaction not found' });
    const pt = q.processType;
    if (pt === 'I') return answer({ respCode: '00', respDesc: 'Success' }, t0);
    if (pt === 'V') {
      const r = await txns.update(invoiceNo, (t) => (t.status === 'A' ? ((t.status = 'V'), true) : false));
      return r?.result ? answer({ respCode: '00', respDesc: 'Success' }, r.value) : answer({ respCode: '99', respDesc: `Void not allowed in status ${t0.status}` }, t0);
    }
    if (pt === 'S') {
      const r = await txns.update(invoiceNo, (t) => (t.status === 'A' ? ((t.status = 'S'), true) : false));
      return r?.result ? answer({ respCode: '00', respDesc: 'Success' }, r.value) : answer({ respCode: '99', respDesc: `Settlement not allowed in status ${t0.status}` }, t0);
    }
    if (pt === 'R') {
      const amt = /^\d+(\.\d{1,5})?$/u.test(q.actionAmount ?? '') ? fromMajor(Number(q.actionAmount)) : NaN;
      const r = await txns.update(invoiceNo, (t) => {
        if (t.status !== 'S' || !(amt > 0) || t.refunded + amt > t.amount) return false;
        t.refunded += amt;
        t.refundReferenceNo = newId('', 4);
        if (t.refunded === t.amount) t.status = 'RF';
        return true;
      });
      return r?.result
        ? answer({ respCode: '00', respDesc: 'Success', amount: toDecimalString(amt) }, r.value)
        : answer({ respCode: '99', respDesc: `Refund not allowed (status ${t0.status}, amount ${q.actionAmount ?? ''})` }, t0);
    }
    return answer({ respCode: '99', respDesc: `processType ${pt ?? ''} is not emulated` }, t0);
  });

  app.post('/control/settle/:invoiceNo', async (req, reply) => {
    const r = await txns.update((req.params as { invoiceNo: string }).invoiceNo, (t) => (t.status === 'A' ? ((t.status = 'S'), true) : false));
    if (!r) return reply.code(404).send({ error: 'not_found' });
    return { invoiceNo: r.value.invoiceNo, status: r.value.status, settled: r.result };
  });
  app.get('/control/txn/:invoiceNo', async (req, reply) => {
    const t = await txns.get((req.params as { invoiceNo: string }).invoiceNo);
    return t ?? reply.code(404).send({ error: 'not_found' });
  });

  // ---------- PGW 4.3 ----------
  function signed(payload: Record<string, unknown>) {
    return { payload: signHs256(payload, cfg().secretKey) };
  }
  const linkUrl = (token: string) => `${base()}/payment/4.3/pay/${token}`;

  app.post('/payment/4.3/paymentToken', async (req, reply) => {
    const p = verifyHs256<Record<string, unknown>>(str(((req.body ?? {}) as Record<string, unknown>).payload), cfg().secretKey);
    if (!p) return reply.send({ respCode: '9042', respDesc: 'Hash value mismatch' });
    if (p.merchantID !== cfg().merchantId) return reply.send({ respCode: '9007', respDesc: 'Invalid merchant' });
    for (const k of ['invoiceNo', 'description', 'amount', 'currencyCode'] as const) if (p[k] === undefined || p[k] === '') return reply.send(signed({ respCode: '9005', respDesc: `Mandatory field missing: ${k}` }));
    const amount = Number(p.amount);
    if (typeof p.amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return reply.send(signed({ respCode: '9009', respDesc: 'Amount is invalid' }));
    if (!/^[A-Z]{3}$/u.test(str(p.currencyCode))) return reply.send(signed({ respCode: '9010', respDesc: 'Invalid currency code' }));
    if (!/^[A-Za-z0-9]{1,50}$/u.test(str(p.invoiceNo))) return reply.send(signed({ respCode: '9004', respDesc: 'The value is not valid: invoiceNo' }));
    const paymentToken = newId('kSAops9Zwhos8hSTSeLTU', 12);
    if (!(await byInvoice.insert(str(p.invoiceNo), paymentToken))) return reply.send(signed({ respCode: '9015', respDesc: 'Existing invoice number' }));
    await links.set(paymentToken, { token: paymentToken, req: p, result: null });
    return reply.send(signed({ webPaymentUrl: linkUrl(paymentToken), paymentToken, respCode: '0000', respDesc: 'Success' }));
  });

  /**
   * After the result the hosted page only sends the browser back to the shop (the same way every
   * time): a form post of `paymentResponse` = base64URL JSON { invoiceNo, channelCode, respCode 2000, respDesc }.
   */
  function linkFront(reply: FastifyReply, s: LinkSession) {
    const front = str(s.req.frontendReturnUrl);
    if (!front) return reply.type('text/html').send(page('2C2P', `<h1>${escapeHtml(str(s.result?.respDesc))}</h1>`));
    const paymentResponse = Buffer.from(
      JSON.stringify({ invoiceNo: str(s.req.invoiceNo), channelCode: str(s.result?.channelCode) || 'CC', respCode: '2000', respDesc: 'Transaction is completed, please do payment inquiry request for full payment information.' }),
      'utf8',
    ).toString('base64url');
    return reply.type('text/html').header('cache-control', 'no-store').send(autoPostPage('2C2P', front, { paymentResponse }));
  }

  app.get('/payment/4.3/pay/:token', async (req, reply) => {
    const s = await links.get((req.params as { token: string }).token);
    if (!s) return errorPage(reply, 404, 'Payment token not found', 'Request a new payment from the shop.');
    if (s.result) return linkFront(reply, s);
    const ipp = Array.isArray(s.req.paymentChannel) && (s.req.paymentChannel as unknown[]).includes('IPP');
    return reply.type('text/html').send(
      page(
        '2C2P payment',
        `<h1>2C2P ${ipp ? 'installment ' : ''}payment</h1><div class="box"><p>${escapeHtml(str(s.req.description))}<br>Amount ${escapeHtml(str(s.req.amount))} ${escapeHtml(str(s.req.currencyCode))}</p>
<form method="post" action="${escapeHtml(linkUrl(s.token))}">${cardInputs(ipp)}</form></div>`,
      ),
    );
  });

  app.post('/payment/4.3/pay/:token', { logLevel: 'silent' }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const d = decide(body, ctx.now());
    // The result is set once, under the session's row lock (also across processes).
    const took = await links.update((req.params as { token: string }).token, (x) => {
      if (x.result) return false;
      x.result = resultOf(x, d, body);
      return true;
    });
    if (!took) return errorPage(reply, 404, 'Payment token not found', 'Request a new payment from the shop.');
    const s = took.value;
    if (!took.result) return linkFront(reply, s); // posted again (a reload): the payment already ended
    const result = s.result!;
    const amountMinor = fromMajor(Number(s.req.amount));
    await txns.set(str(s.req.invoiceNo), {
      ...emptyTxn(str(s.req.invoiceNo), amountMinor),
      status: result.respCode === '0000' ? 'A' : result.respCode === '0003' ? 'C' : 'PF',
      approvalCode: str(result.approvalCode),
      referenceNo: str(result.referenceNo),
      transactionDateTime: str(result.transactionDateTime),
      maskedPan: str(result.accountNo),
      eci: str(result.eci),
      paidChannel: result.respCode === '0000' ? 'CC' : '',
    });
    const backend = str(s.req.backendReturnUrl);
    // The backend notification's amount is a decimal string in 2C2P's sample ("230.87").
    if (backend) await ctx.deliver({ provider: '2c2p', url: backend, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed({ ...result, amount: toDecimalString(amountMinor) })) });
    return linkFront(reply, s);
  });

  function resultOf(s: LinkSession, d: Decision, body: Record<string, unknown>): Record<string, unknown> {
    const ipp = Array.isArray(s.req.paymentChannel) && (s.req.paymentChannel as unknown[]).includes('IPP');
    const now = ctx.now();
    return {
      merchantID: cfg().merchantId,
      invoiceNo: str(s.req.invoiceNo),
      // A number in 2C2P's inquiry sample (1000.00).
      amount: Number(s.req.amount),
      currencyCode: str(s.req.currencyCode),
      transactionDateTime: stamp14(now),
      agentCode: d.ok ? 'KBANK' : '',
      channelCode: ipp ? 'IPP' : 'VI',
      approvalCode: d.ok ? String(100000 + Math.floor(Math.random() * 899999)) : '',
      referenceNo: d.ok ? newId('', 4) : '',
      tranRef: d.ok ? newId('', 4) : '',
      accountNo: d.masked,
      eci: d.ok ? '05' : '',
      ...(ipp ? { installmentPeriod: Number(str(body.period) || 3), interestType: str(s.req.interestType) } : {}),
      respCode: d.ok ? '0000' : d.code === 'cancel' ? '0003' : d.code,
      respDesc: d.ok ? 'Success' : d.desc,
    };
  }

  app.post('/payment/4.3/paymentInquiry', async (req, reply) => {
    const p = verifyHs256<Record<string, unknown>>(str(((req.body ?? {}) as Record<string, unknown>).payload), cfg().secretKey);
    if (!p) return reply.send({ respCode: '9042', respDesc: 'Hash value mismatch' });
    if (p.merchantID !== cfg().merchantId) return reply.send({ respCode: '9007', respDesc: 'Invalid merchant' });
    const token = p.paymentToken !== undefined ? str(p.paymentToken) : await byInvoice.get(str(p.invoiceNo));
    const s = token === undefined ? undefined : await links.get(token);
    if (!s) return reply.send(signed({ merchantID: cfg().merchantId, invoiceNo: str(p.invoiceNo), respCode: '2002', respDesc: 'Transaction not found' }));
    if (!s.result) {
      return reply.send(signed({ merchantID: cfg().merchantId, invoiceNo: str(s.req.invoiceNo), amount: Number(s.req.amount), currencyCode: str(s.req.currencyCode), respCode: '0001', respDesc: 'Transaction is pending' }));
    }
    return reply.send(signed(s.result));
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === '2c2p') }));
}
