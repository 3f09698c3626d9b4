// GB Prime Pay and PaySolutions on the wire, field by field, against what the providers publish:
// GB Prime Pay's official plugins' calls (GBPrimepay/magento2-gbprimepay-payment-gateway,
// GBPrimepay/woocommerce-gbprimepay-checkout), its status query (doc.globalprimepay.com/apiquery,
// `txn` and `txns`), and PaySolutions' Inquiry API (api-docs.paysolutions.asia, inquiry-api: the
// documented object, and nothing when the payment did not succeed). No server: a recording fetch.
import { describe, expect, it } from 'vitest';
import { createGbPrimeClient, createGbPrimeProvider, readStatusAnswer } from '../../../server/providers/gbprime';
import { createPaySolutionsClient, createPaySolutionsProvider, inquiryMerchantId, readInquiryAnswer } from '../../../server/providers/paysolutions';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function recorder(answer: (s: Sent) => Response) {
  const sent: Sent[] = [];
  const f = async (url: string, init?: RequestInit) => {
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const s: Sent = { url, method: init?.method ?? 'GET', headers, body: init?.body };
    sent.push(s);
    return answer(s);
  };
  return { sent, fetch: f };
}

const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'content-type': 'application/json' } });
const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('GB Prime Pay: the plugins\' calls', () => {
  const keys = { publicKey: 'pk1', secretKey: 'sk1', token: 'tok1' };

  it('the browser\'s token call (public key), our charge (secret key, otp Y, baht), 3-D Secure form (publicKey + gbpReferenceNo); the server never sends card data', async () => {
    const r = recorder(() => json({ resultCode: '00', gbpReferenceNo: 'gbp123', referenceNo: 'G1' }));
    const client = createGbPrimeClient({ baseUrl: 'https://api.globalprimepay.com', keys, fetch: r.fetch });
    // Where and with which key the card page's script tokenises in the browser (M2-config sendAPICurl: public key).
    expect(client.tokenEndpoint()).toEqual({ url: 'https://api.globalprimepay.com/v1/tokens', publicKey: 'pk1' });
    const gb = createGbPrimeProvider(client);
    const initiate = (input: Record<string, unknown>) =>
      gb.initiatePayment({
        ref: 'G1',
        orderId: 1,
        amount: 45050,
        currency: 'THB',
        description: 'Course',
        returnUrl: 'https://shop/api/gbprime/response',
        notifyUrl: 'https://shop/api/gbprime/background',
        customer: { name: 'S', email: 's@example.com' },
        input,
      });
    // No token, no call: the adapter has no way to send card data.
    await expect(initiate({ kind: 'card', card: { number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'S' } })).rejects.toThrow(/token/u);
    expect(r.sent).toHaveLength(0);
    const started = await initiate({ kind: 'card', cardToken: 'ctok' });
    expect(r.sent).toHaveLength(1);
    const [charge] = r.sent;
    expect(charge).toMatchObject({ url: 'https://api.globalprimepay.com/v1/tokens/charge', method: 'POST', headers: { authorization: basic('sk1') } });
    expect(JSON.parse(String(charge!.body))).toEqual({
      amount: 450.5,
      referenceNo: 'G1',
      detail: 'Course',
      customerName: 'S',
      customerEmail: 's@example.com',
      merchantDefined1: 'G1',
      card: { token: 'ctok' },
      otp: 'Y',
      responseUrl: 'https://shop/api/gbprime/response',
      backgroundUrl: 'https://shop/api/gbprime/background',
    });
    expect(started).toEqual({ kind: 'form', action: 'https://api.globalprimepay.com/v1/tokens/3d_secured', method: 'POST', fields: { publicKey: 'pk1', gbpReferenceNo: 'gbp123' }, providerRef: 'G1' });
    expect(gb.capabilities).toEqual({ refund: 'manual', cancel: false });
    expect(await gb.refundPayment({ ref: 'G1', amount: 1, currency: 'THB', txnId: null }, 1, 'k')).toEqual({ kind: 'manual' });
  });

  it('QR: multipart POST to /gbp/gateway/qrcode with the customer token, answered with a PNG; "Incomplete information" is a refusal', async () => {
    const r = recorder(() => new Response(PNG, { status: 200, headers: { 'content-type': 'image/png' } }));
    const client = createGbPrimeClient({ baseUrl: 'https://api.globalprimepay.com', keys, fetch: r.fetch });
    expect(await client.qrcode({ amount: 77700, referenceNo: 'P1', backgroundUrl: 'https://shop/bg', detail: 'Course' })).toEqual(PNG);
    const s = r.sent[0]!;
    expect(s.url).toBe('https://api.globalprimepay.com/gbp/gateway/qrcode');
    expect(s.body).toBeInstanceOf(FormData);
    const fd = s.body as FormData;
    expect(Object.fromEntries(fd.entries())).toMatchObject({ token: 'tok1', amount: '777.00', referenceNo: 'P1', backgroundUrl: 'https://shop/bg', detail: 'Course' });
    const refused = createGbPrimeClient({ baseUrl: 'https://x', keys, fetch: async () => new Response('Incomplete information', { status: 200 }) });
    await expect(refused.qrcode({ amount: 1, referenceNo: 'P2', backgroundUrl: 'b', detail: 'd' })).rejects.toThrow(/Incomplete information/u);
  });

  it('check_status_txn: secret key, JSON referenceNo; answers `txn` or `txns` (a paid row wins); status mapped', async () => {
    const r = recorder(() => json({ resultCode: '00', txn: { amount: '1.00', referenceNo: '20201200000601', gbpReferenceNo: 'gbp069311577863', status: 'S', resultCode: '00' } }));
    const client = createGbPrimeClient({ baseUrl: 'https://api.gbprimepay.com', keys, fetch: r.fetch });
    const gb = createGbPrimeProvider(client);
    expect(await gb.getPaymentStatus({ ref: '20201200000601', amount: 100, currency: 'THB' })).toEqual({ kind: 'paid', paidAmount: 100, currency: 'THB', txnId: 'gbp069311577863' });
    expect(r.sent[0]).toMatchObject({ url: 'https://api.gbprimepay.com/v1/check_status_txn', method: 'POST', headers: { authorization: basic('sk1') } });
    expect(JSON.parse(String(r.sent[0]!.body))).toEqual({ referenceNo: '20201200000601' });
    const txns = { resultCode: '00', txns: [{ amount: '777.00', referenceNo: 'P1', gbpReferenceNo: 'a', status: 'D', paymentType: 'Q', resultCode: '05' }, { amount: '777.00', referenceNo: 'P1', gbpReferenceNo: 'b', status: 'G', paymentType: 'Q', resultCode: '00' }] };
    expect(readStatusAnswer(txns)).toMatchObject({ status: 'G', amount: 77700, gbpReferenceNo: 'b' });
    expect(readStatusAnswer({ resultCode: '00', txns: [txns.txns[0]] })).toMatchObject({ status: 'D', paymentType: 'Q' });
    expect(readStatusAnswer({ resultCode: '02', resultMessage: 'not found' })).toBeNull();
    const status = (txn: Record<string, string>) => createGbPrimeProvider(createGbPrimeClient({ baseUrl: 'https://x', keys, fetch: async () => json({ resultCode: '00', txn }) })).getPaymentStatus({ ref: 'R', amount: 1, currency: 'THB' });
    expect(await status({ amount: '1.00', referenceNo: 'R', status: 'D', paymentType: 'C', resultCode: '51' })).toMatchObject({ kind: 'failed', code: '51' });
    expect(await status({ amount: '1.00', referenceNo: 'R', status: 'V', paymentType: 'C', resultCode: '15' })).toMatchObject({ kind: 'failed', code: 'V' });
    expect(await status({ amount: '1.00', referenceNo: 'R', status: 'D', paymentType: 'Q', resultCode: '54' })).toMatchObject({ kind: 'failed', code: 'D' });
    expect(await status({ amount: '1.00', referenceNo: 'R', status: 'P', resultCode: '' })).toEqual({ kind: 'pending' });
  });

  it('background: only referenceNo is taken (form or JSON); nothing in it is trusted', async () => {
    const gb = createGbPrimeProvider(createGbPrimeClient({ baseUrl: 'https://x', keys }));
    expect(await gb.verifyNotification({ headers: {}, rawBody: '', body: { resultCode: '00', referenceNo: 'G1T2', amount: '450.00' } })).toEqual({ ref: 'G1T2', eventId: null });
    expect(await gb.verifyNotification({ headers: {}, rawBody: '', body: { resultCode: '00', referenceNo: '../x' } })).toBeNull();
  });
});

describe('PaySolutions: the Inquiry API as documented', () => {
  const keys = { merchantId: '12345678', apiKey: 'api1', secretKey: 'sec1' };
  const documented = {
    ReferenceNo: '869331151059',
    OrderNo: '012345666',
    MerchantID: '99999999',
    ProductDetail: 'Some Product Dtail',
    Total: 3900.0,
    CardType: 'V',
    CustomerEmal: 'some_customer@mail.com',
    CurrencyCode: 'OO',
    Status: 'CP',
    StatusName: 'COMPLETE',
    PostBackUrl: 'https://someweb.com?postback=1',
    PostBackParameters: 'COMPLETED',
    PostBackMethod: 'P',
    PostBackCompleted: 'true',
    OrderDateTime: '2020-10-05T03:48:11.990+00:00',
    installment: null,
  };

  it('headers apikey, merchantSecretKey and merchantId (the last 5 digits); the documented object is one paid payment', async () => {
    const r = recorder(() => json(documented));
    const ps = createPaySolutionsProvider(createPaySolutionsClient({ baseUrl: 'https://apis.paysolutions.asia', formUrl: 'https://payment.paysolutions.asia/epaylink/payment.aspx', keys, fetch: r.fetch }));
    expect(await ps.getPaymentStatus({ ref: '869331151059', amount: 390000, currency: 'THB' })).toEqual({ kind: 'paid', paidAmount: 390000, currency: 'THB', txnId: '012345666' });
    const s = r.sent[0]!;
    expect(s).toMatchObject({ url: 'https://apis.paysolutions.asia/order/orderdetailpost', method: 'POST', headers: { apikey: 'api1', merchantsecretkey: 'sec1', merchantid: '45678', 'content-type': 'application/json' } });
    expect(JSON.parse(String(s.body))).toEqual({ merchantId: '45678', orderNo: 'X', refno: '869331151059', productDetail: 'QWERTY' });
    expect(inquiryMerchantId('12345678')).toBe('45678');
  });

  it('nothing answered (payment not successful) is "not paid", never a 500; an older array answer is tolerated', async () => {
    for (const empty of [new Response('', { status: 200 }), new Response('', { status: 200, headers: { 'content-type': 'application/json' } }), json(null), json({})]) {
      const ps = createPaySolutionsProvider(createPaySolutionsClient({ baseUrl: 'https://x', formUrl: 'https://y/epaylink/payment.aspx', keys, fetch: async () => empty }));
      expect(await ps.getPaymentStatus({ ref: '100', amount: 1, currency: 'THB' })).toEqual({ kind: 'pending' });
    }
    expect(readInquiryAnswer([{ ...documented, Status: 'NS' }, documented])).toMatchObject({ status: 'CP', total: 390000 });
    expect(readInquiryAnswer({ ...documented, Status: 'NS' })).toMatchObject({ status: 'NS' });
  });

  it('the payment form: POST fields as published, our total in baht; the postback is unsigned (refno taken, merchantid checked); refunds manual', async () => {
    const ps = createPaySolutionsProvider(createPaySolutionsClient({ baseUrl: 'https://x', formUrl: 'https://payment.paysolutions.asia/epaylink/payment.aspx', keys }));
    const started = await ps.initiatePayment({ ref: '4200', orderId: 42, amount: 32000, currency: 'THB', description: 'Course', returnUrl: 'https://shop/r', notifyUrl: 'https://shop/p', customer: { email: 'b@example.com' } });
    expect(started).toEqual({
      kind: 'form',
      action: 'https://payment.paysolutions.asia/epaylink/payment.aspx?lang=TH',
      method: 'POST',
      fields: { customeremail: 'b@example.com', productdetail: 'Course', refno: '4200', merchantid: '12345678', cc: '00', total: '320.00', lang: 'TH', returnurl: 'https://shop/r', postbackurl: 'https://shop/p' },
      providerRef: '4200',
    });
    const english = await ps.initiatePayment({ ref: '4201', orderId: 42, amount: 32000, currency: 'THB', description: 'Course', returnUrl: 'https://shop/r', notifyUrl: 'https://shop/p', locale: 'en' });
    expect(english).toMatchObject({ action: 'https://payment.paysolutions.asia/epaylink/payment.aspx?lang=EN', fields: { lang: 'EN' } });
    expect(await ps.verifyNotification({ headers: {}, rawBody: '', body: { refno: '4200', merchantid: '12345678', status: 'CP' } })).toEqual({ ref: '4200', eventId: null });
    expect(await ps.verifyNotification({ headers: {}, rawBody: '', body: { refno: '4200', merchantid: '999' } })).toBeNull();
    expect(await ps.refundPayment({ ref: '4200', amount: 1, currency: 'THB', txnId: null }, 1, 'k')).toEqual({ kind: 'manual' });
  });
});
