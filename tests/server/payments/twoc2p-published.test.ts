// 2C2P's envelopes as 2C2P's own published code builds and reads them, re-implemented here apart
// from our adapter (node:crypto only, none of server/providers/twoc2p.ts's helpers):
//  - the 3DS API 9.9 sample (PHP): $paymentPayload = base64_encode($xml);
//    $signature = strtoupper(hash_hmac('sha256', $paymentPayload, $secretKey)); posted as
//    paymentRequest = base64_encode("<PaymentRequest><version/><payload/><signature/></PaymentRequest>");
//    the answer read the same way (paymentResponse -> payload + signature);
//  - 2C2P/2c2p-magento2 Model/PaymentMethod.php: Payment Action 3.4 at PaymentActionV2/PaymentProcess.aspx,
//    request hash strtoupper(hash_hmac('sha1', version.merchantID.processType.invoiceNo[.amount])),
//    answer hash over 21 fields (compared in lower case for the inquiry);
//  - PGW 4.3 (developer.2c2p.com, 2C2P/agent-skills): JWT HS256 `{ payload }`, /payment/4.3/...; the
//    backend-notification and inquiry samples.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../server/providers/http';
import { createTwoC2pClient, createTwoC2pProvider, statusFromPgw } from '../../../server/providers/twoc2p';

const MERCHANT = 'JT01';
const SECRET = 'published-example-secret-0123456789';

// ---- independent re-implementation of 2C2P's published code -----------------------------------
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const hmacUpper = (alg: 'sha1' | 'sha256', text: string) => createHmac(alg, SECRET).update(text).digest('hex').toUpperCase();
const tag = (xml: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'u').exec(xml)?.[1]?.trim();
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64').replace(/\+/gu, '-').replace(/\//gu, '_').replace(/=+$/u, '');
function jwtSign(payload: unknown): string {
  const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const body = b64url(JSON.stringify(payload));
  return `${head}.${body}.${b64url(createHmac('sha256', SECRET).update(`${head}.${body}`).digest())}`;
}
function jwtRead(token: string): Record<string, unknown> {
  const [head, body, sig] = token.split('.');
  expect(b64url(createHmac('sha256', SECRET).update(`${head}.${body}`).digest())).toBe(sig);
  expect(JSON.parse(Buffer.from(head!, 'base64').toString())).toMatchObject({ alg: 'HS256' });
  return JSON.parse(Buffer.from(body!, 'base64').toString()) as Record<string, unknown>;
}
/** The plugin's answer hash fields, in its order (Model/PaymentMethod.php, inquiry()). */
const PLUGIN_RES_FIELDS = 'version respCode processType invoiceNo amount status approvalCode referenceNo transactionDateTime paidAgent paidChannel maskedPan eci paymentScheme processBy refundReferenceNo userDefined1 userDefined2 userDefined3 userDefined4 userDefined5'.split(' ');
function pluginAnswer(f: Record<string, string>, hashCase: 'lower' | 'upper' = 'lower', hashOverride?: string): string {
  const hash = hmacUpper('sha1', PLUGIN_RES_FIELDS.map((k) => f[k] ?? '').join(''));
  const xml = `<PaymentProcessResponse>${Object.entries(f).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}<hashValue>${hashOverride ?? (hashCase === 'lower' ? hash.toLowerCase() : hash)}</hashValue></PaymentProcessResponse>`;
  return b64(xml);
}

interface Seen { url: string; body: string; contentType: string }
function fakeFetch(answer: (s: Seen) => { status?: number; type?: string; text: string }) {
  const seen: Seen[] = [];
  const f = async (url: string, init?: RequestInit) => {
    const s = { url, body: String(init?.body ?? ''), contentType: String((init?.headers as Record<string, string>)['content-type'] ?? '') };
    seen.push(s);
    const a = answer(s);
    return new Response(a.text, { status: a.status ?? 200, headers: { 'content-type': a.type ?? 'text/plain' } });
  };
  return { f, seen };
}
const opts = (fetch: ReturnType<typeof fakeFetch>['f']) => ({
  baseUrl: 'https://sandbox-pgw.2c2p.com',
  securePayUrl: 'https://demo2.2c2p.com/2C2PFrontEnd/SecurePayment/PaymentAuth.aspx',
  keys: { merchantId: MERCHANT, secretKey: SECRET },
  fetch,
});
const paRequest = (s: Seen) => unb64(new URLSearchParams(s.body).get('paymentRequest') ?? '');

describe('3DS API card form (9.9): the envelope 2C2P\'s sample builds and reads', () => {
  it('our paymentRequest opens and verifies as the sample does: one field, version 9.9, upper-case HMAC-SHA256 of the base64 payload', async () => {
    const p = createTwoC2pProvider(opts(fakeFetch(() => ({ text: '' })).f));
    const started = await p.initiatePayment({ ref: 'C123A456', orderId: 1, amount: 59000, currency: 'THB', description: 'Course <A&B>', returnUrl: 'https://shop/r', notifyUrl: 'https://shop/n', customer: { name: 'Somchai' }, input: { kind: 'card-form', encryptedCardInfo: 'ENC+/=' } });
    expect(started.kind).toBe('form');
    if (started.kind !== 'form') return;
    expect(started.action).toBe('https://demo2.2c2p.com/2C2PFrontEnd/SecurePayment/PaymentAuth.aspx');
    expect(Object.keys(started.fields)).toEqual(['paymentRequest']);
    const outer = unb64(started.fields.paymentRequest!);
    expect(outer.startsWith('<PaymentRequest>')).toBe(true);
    expect(tag(outer, 'version')).toBe('9.9');
    const payload = tag(outer, 'payload')!;
    expect(tag(outer, 'signature')).toBe(hmacUpper('sha256', payload));
    const inner = unb64(payload);
    expect(tag(inner, 'merchantID')).toBe(MERCHANT);
    expect(tag(inner, 'uniqueTransactionCode')).toBe('C123A456');
    expect(tag(inner, 'amt')).toBe('000000059000');
    expect(tag(inner, 'currencyCode')).toBe('764');
    expect(tag(inner, 'encCardData')).toBe('ENC+/=');
    expect(tag(inner, 'desc')).toBe('Course &lt;A&amp;B&gt;');
    // A changed amount no longer matches the signature.
    expect(hmacUpper('sha256', b64(inner.replace('000000059000', '000000000100')))).not.toBe(tag(outer, 'signature'));
  });

  it('a paymentResponse sealed as 2C2P does is read; a wrong signature, another merchant or a bare XML are not', () => {
    const c = createTwoC2pClient(opts(fakeFetch(() => ({ text: '' })).f));
    const inner = `<PaymentResponse><version>9.9</version><timeStamp>251125120000</timeStamp><merchantID>${MERCHANT}</merchantID><respCode>00</respCode><pan>411111XXXXXX1111</pan><amt>000000059000</amt><uniqueTransactionCode>C123A456</uniqueTransactionCode><tranRef>2868821</tranRef><approvalCode>531484</approvalCode><refNumber>2785703</refNumber><eci>05</eci><dateTime>20251125120000</dateTime><status>A</status><failReason>Approved</failReason></PaymentResponse>`;
    const payload = b64(inner);
    const seal = (sig: string) => b64(`<PaymentResponse><version>9.9</version><payload>${payload}</payload><signature>${sig}</signature></PaymentResponse>`);
    expect(c.decodeCardResponse(seal(hmacUpper('sha256', payload)))).toMatchObject({ uniqueTransactionCode: 'C123A456', status: 'A', amt: '000000059000' });
    // Tolerant of the signature's case; a form post that turned '+' into ' ' still reads.
    expect(c.decodeCardResponse(seal(hmacUpper('sha256', payload).toLowerCase()).replace(/\+/gu, ' '))).not.toBeNull();
    expect(c.decodeCardResponse(seal('A'.repeat(64)))).toBeNull();
    const other = b64(inner.replace(MERCHANT, 'JT99'));
    expect(c.decodeCardResponse(b64(`<PaymentResponse><version>9.9</version><payload>${other}</payload><signature>${hmacUpper('sha256', other)}</signature></PaymentResponse>`))).toBeNull();
    expect(c.decodeCardResponse(b64(inner))).toBeNull();
  });
});

describe('Payment Action API as the Magento 2 plugin calls it (PaymentActionV2/PaymentProcess.aspx, 3.4, HMAC-SHA1)', () => {
  const answerFor = (s: Seen, extra: Record<string, string> = {}) => {
    const q = paRequest(s);
    return pluginAnswer({ version: '3.4', timeStamp: '251125120000', respCode: '00', respDesc: 'Success', processType: tag(q, 'processType')!, invoiceNo: tag(q, 'invoiceNo')!, amount: '590.00', status: 'A', approvalCode: '295068', referenceNo: '3596581', transactionDateTime: '20251125094710', maskedPan: '411111XXXXXX1111', eci: '05', paymentScheme: 'VI', processBy: 'VI', ...extra });
  };

  it('inquiry: the request carries the plugin\'s fields and hash; the plugin-hashed answer (lower case) is read; paid for the asked invoice', async () => {
    const ff = fakeFetch((s) => ({ text: answerFor(s) }));
    const p = createTwoC2pProvider(opts(ff.f));
    const st = await p.getPaymentStatus({ ref: 'C123A456', amount: 59000, currency: 'THB', details: { kind: 'card-form' } });
    expect(st).toEqual({ kind: 'paid', paidAmount: 59000, currency: 'THB', txnId: '3596581' });
    expect(ff.seen[0]!.url).toBe('https://demo2.2c2p.com/2C2PFrontEnd/PaymentActionV2/PaymentProcess.aspx');
    expect(ff.seen[0]!.contentType).toBe('application/x-www-form-urlencoded');
    const q = paRequest(ff.seen[0]!);
    expect(q.startsWith('<PaymentProcessRequest>')).toBe(true);
    expect([tag(q, 'version'), tag(q, 'merchantID'), tag(q, 'processType'), tag(q, 'invoiceNo'), tag(q, 'actionAmount')]).toEqual(['3.4', MERCHANT, 'I', 'C123A456', undefined]);
    expect(tag(q, 'hashValue')).toBe(hmacUpper('sha1', `3.4${MERCHANT}IC123A456`));
  });

  it('an answer whose hash does not verify, or for another invoice (inquiry mismatch), is refused', async () => {
    const bad = createTwoC2pProvider(opts(fakeFetch((s) => ({ text: answerFor(s).replace(/./u, 'Q') })).f));
    await expect(bad.getPaymentStatus({ ref: 'C1', amount: 100, currency: 'THB', details: { kind: 'card-form' } })).rejects.toBeInstanceOf(ProviderError);
    const forged = createTwoC2pProvider(opts(fakeFetch(() => ({ text: pluginAnswer({ version: '3.4', respCode: '00', processType: 'I', invoiceNo: 'C1', amount: '1.00', status: 'A' }, 'upper', 'ABCDEF') })).f));
    await expect(forged.getPaymentStatus({ ref: 'C1', amount: 100, currency: 'THB', details: { kind: 'card-form' } })).rejects.toMatchObject({ code: 'bad_signature' });
    const other = createTwoC2pProvider(opts(fakeFetch((s) => ({ text: answerFor(s, { invoiceNo: 'C999' }) })).f));
    await expect(other.getPaymentStatus({ ref: 'C1', amount: 100, currency: 'THB', details: { kind: 'card-form' } })).rejects.toMatchObject({ code: 'wrong_invoice' });
    const pkcs7 = createTwoC2pProvider(opts(fakeFetch(() => ({ text: b64('\u0030\u0082binary') })).f));
    await expect(pkcs7.getPaymentStatus({ ref: 'C1', amount: 100, currency: 'THB', details: { kind: 'card-form' } })).rejects.toMatchObject({ code: 'unreadable_answer' });
  });

  it('statuses: IP pending, PF / AR failed with the status, V cancelled, not found (respCode not 00) pending; 12-digit amounts read too', async () => {
    const read = async (extra: Record<string, string>) => createTwoC2pProvider(opts(fakeFetch((s) => ({ text: answerFor(s, extra) })).f)).getPaymentStatus({ ref: 'C1', amount: 59000, currency: 'THB', details: { kind: 'card-form' } });
    expect(await read({ status: 'IP' })).toEqual({ kind: 'pending' });
    expect(await read({ status: 'PF', respDesc: 'Declined' })).toMatchObject({ kind: 'failed', code: 'PF' });
    expect(await read({ status: 'AR' })).toMatchObject({ kind: 'failed', code: 'AR' });
    expect(await read({ status: 'V' })).toEqual({ kind: 'cancelled' });
    expect(await read({ respCode: '15', status: '' })).toEqual({ kind: 'pending' });
    expect(await read({ status: 'S', amount: '000000059000' })).toMatchObject({ kind: 'paid', paidAmount: 59000 });
  });

  it('refund as the plugin: inquiry, then void (V) when approved, refund (R) with actionAmount in the hash when settled; already voided / refunded calls nothing more', async () => {
    const run = async (status: string) => {
      const ff = fakeFetch((s) => {
        const pt = tag(paRequest(s), 'processType')!;
        return { text: answerFor(s, pt === 'I' ? { status } : pt === 'V' ? { status: 'V' } : { status: 'RF', refundReferenceNo: '3598743', amount: '25.00' }) };
      });
      const r = await createTwoC2pProvider(opts(ff.f)).refundPayment({ ref: 'C1', amount: 59000, currency: 'THB', txnId: null }, status === 'S' ? 2500 : 59000, 'key-1');
      return { r, calls: ff.seen.map((s) => paRequest(s)) };
    };
    const voided = await run('A');
    expect(voided.calls.map((q) => tag(q, 'processType'))).toEqual(['I', 'V']);
    expect(tag(voided.calls[1]!, 'hashValue')).toBe(hmacUpper('sha1', `3.4${MERCHANT}VC1`));
    expect(voided.r).toMatchObject({ kind: 'refunded', amount: 59000 });
    const refunded = await run('S');
    expect(refunded.calls.map((q) => tag(q, 'processType'))).toEqual(['I', 'R']);
    expect(tag(refunded.calls[1]!, 'actionAmount')).toBe('25.00');
    expect(tag(refunded.calls[1]!, 'hashValue')).toBe(hmacUpper('sha1', `3.4${MERCHANT}RC125.00`));
    expect(refunded.r).toEqual({ kind: 'refunded', refundId: '3598743', amount: 2500, pending: false });
    for (const done of ['V', 'RF']) expect((await run(done)).calls.map((q) => tag(q, 'processType'))).toEqual(['I']);
    await expect(run('RS')).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('PGW 4.3 payment link: JWT HS256 { payload } at /payment/4.3/...', () => {
  it('paymentToken: the path has the real version; our JWT verifies independently; OUR amount, IPP for installments', async () => {
    const ff = fakeFetch(() => ({ type: 'application/json', text: JSON.stringify({ payload: jwtSign({ webPaymentUrl: 'https://sandbox-pgw-ui.2c2p.com/payment/4.3/#/token/kSAops9Z', paymentToken: 'kSAops9Z', respCode: '0000', respDesc: 'Success' }) }) }));
    const p = createTwoC2pProvider(opts(ff.f));
    const started = await p.initiatePayment({ ref: 'I1A2', orderId: 1, amount: 1200000, currency: 'THB', description: 'Course', returnUrl: 'https://shop/r', notifyUrl: 'https://shop/n', input: { kind: 'payment-link', installment: { interestType: 'A', periods: [3, 6, 10] }, locale: 'th' } });
    expect(started).toEqual({ kind: 'redirect', url: 'https://sandbox-pgw-ui.2c2p.com/payment/4.3/#/token/kSAops9Z', providerRef: 'kSAops9Z' });
    expect(ff.seen[0]!.url).toBe('https://sandbox-pgw.2c2p.com/payment/4.3/paymentToken');
    const sent = jwtRead((JSON.parse(ff.seen[0]!.body) as { payload: string }).payload);
    expect(sent).toMatchObject({ merchantID: MERCHANT, invoiceNo: 'I1A2', amount: 12000, currencyCode: 'THB', paymentChannel: ['IPP'], interestType: 'A', installmentPeriodFilter: [3, 6, 10], backendReturnUrl: 'https://shop/n', frontendReturnUrl: 'https://shop/r', locale: 'th' });
  });

  it('an unsigned error answer and a wrongly signed answer are errors, never a link', async () => {
    const plain = createTwoC2pProvider(opts(fakeFetch(() => ({ type: 'application/json', text: JSON.stringify({ respCode: '9042', respDesc: 'Hash value mismatch' }) })).f));
    await expect(plain.initiatePayment({ ref: 'I1', orderId: 1, amount: 100, currency: 'THB', description: 'x', returnUrl: 'https://s/r', notifyUrl: 'https://s/n', input: { kind: 'payment-link' } })).rejects.toMatchObject({ code: '9042' });
    const forged = createTwoC2pProvider(opts(fakeFetch(() => ({ type: 'application/json', text: JSON.stringify({ payload: jwtSign({ respCode: '0000' }).replace(/.$/u, 'x') }) })).f));
    await expect(forged.initiatePayment({ ref: 'I1', orderId: 1, amount: 100, currency: 'THB', description: 'x', returnUrl: 'https://s/r', notifyUrl: 'https://s/n', input: { kind: 'payment-link' } })).rejects.toMatchObject({ code: 'bad_signature' });
  });

  it('2C2P\'s backend-notification sample (amount "230.87") is verified and read; the inquiry sample\'s number amount too; a notification for another invoice in the inquiry is refused', async () => {
    const sample = { merchantID: MERCHANT, invoiceNo: '280520075921', accountNo: '411111XXXXXX1111', amount: '230.87', currencyCode: 'THB', tranRef: '2868821', referenceNo: '2785703', approvalCode: '531484', eci: '05', transactionDateTime: '20200528080508', respCode: '0000', respDesc: 'Success' };
    const p = createTwoC2pProvider(opts(fakeFetch((s) => ({ type: 'application/json', text: JSON.stringify({ payload: jwtSign({ ...sample, invoiceNo: (jwtRead((JSON.parse(s.body) as { payload: string }).payload).invoiceNo as string) === 'X' ? 'Y' : '280520075921', amount: 230.87 }) }) })).f));
    const v = await p.verifyNotification({ headers: {}, rawBody: '', body: { payload: jwtSign(sample) } });
    expect(v).toEqual({ ref: '280520075921', eventId: null, claimed: { kind: 'paid', paidAmount: 23087, currency: 'THB', txnId: '2868821' } });
    expect(await p.verifyNotification({ headers: {}, rawBody: '', body: { payload: jwtSign({ ...sample, merchantID: 'JT99' }) } })).toBeNull();
    expect(await p.getPaymentStatus({ ref: '280520075921', amount: 23087, currency: 'THB' })).toMatchObject({ kind: 'paid', paidAmount: 23087 });
    await expect(p.getPaymentStatus({ ref: 'X', amount: 1, currency: 'THB' })).rejects.toMatchObject({ code: 'wrong_invoice' });
    expect(statusFromPgw({ ...sample, respCode: '0001' })).toEqual({ kind: 'pending' });
    expect(statusFromPgw({ ...sample, respCode: '0003' })).toEqual({ kind: 'cancelled' });
    expect(statusFromPgw({ ...sample, respCode: '4051', respDesc: 'Insufficient funds' })).toMatchObject({ kind: 'failed', code: '4051' });
    // 2C2P's inquiry sample is in SGD: not a currency of this shop, never read as paid.
    expect(statusFromPgw({ ...sample, amount: 1000.0, currencyCode: 'SGD' })).toMatchObject({ kind: 'failed', code: 'unreadable_amount' });
  });
});
