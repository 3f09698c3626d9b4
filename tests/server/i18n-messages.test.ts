// The API answers every refused request with the spec's code and message in the
// request's language (Accept-Language, else the lang cookie, else Thai), in the spec's order,
// never the validator's own wording; the field-level details stay under `result`.
import { describe, expect, it } from 'vitest';
import { MESSAGES, message, renderMsg, msgOf } from '../../domain/messages';
import { MESSAGES_EN } from '../../domain/messages-en';
import { appForFile, call, testApp, type TestApp } from './support/app';

let t: TestApp;
let sid: string;

appForFile(() => testApp({ payments: true }), ['student'], (app, [c]) => { t = app; sid = c; });

const VALIDATOR_WORDS = /must (match|have|be|NOT)|required property|format "|pattern "|additional properties/i;
const THAI = /[\u0E00-\u0E7F]/u;

const report = (lang: string | null, body: unknown, cookie = sid) =>
  call(t.app, 'createPaymentReportPrivate', { cookie, body, headers: lang ? { 'accept-language': lang } : {} });

const BANK_ORDER = ['slip', 'transfer_amount', 'bank_code', 'bank_account', 'transfer_datetime', 'time'];

describe('bank-transfer notice: the spec order, in the request language', () => {
  it('a blank body in Thai answers the slip first, then amount, bank, account, date, time', async () => {
    const r = await report('th', {});
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.msg).toBe('กรุณาอัพโหลดหลักฐานการโอนเงิน');
    const fields = (r.body.error.result as { field: string }[]).map((i) => i.field);
    expect(fields.slice(0, BANK_ORDER.length)).toEqual(BANK_ORDER);
    expect(r.body.error.result.slice(0, 6).map((i: { msg: string }) => i.msg)).toEqual([
      MESSAGES.SLIP_REQUIRED, MESSAGES.TRANSFER_AMOUNT_REQUIRED, MESSAGES.ORIGIN_BANK_REQUIRED, MESSAGES.DESTINATION_ACCOUNT_REQUIRED, MESSAGES.TRANSFER_DATE_REQUIRED, MESSAGES.TRANSFER_TIME_REQUIRED,
    ]);
    for (const i of r.body.error.result as { msg: string }[]) expect(i.msg).not.toMatch(VALIDATOR_WORDS);
  });

  it('the same blank body in English answers the English texts, in the same order', async () => {
    const r = await report('en-US,en;q=0.9,th;q=0.5', {});
    expect(r.status).toBe(400);
    expect(r.body.error.msg).toBe(MESSAGES_EN.SLIP_REQUIRED);
    expect((r.body.error.result as { field: string }[]).slice(0, 6).map((i) => i.field)).toEqual(BANK_ORDER);
    for (const i of r.body.error.result as { msg: string }[]) {
      expect(i.msg).not.toMatch(THAI);
      expect(i.msg).not.toMatch(VALIDATOR_WORDS);
    }
  });

  it('no body at all answers the same as a blank one', async () => {
    const r = await call(t.app, 'createPaymentReportPrivate', { cookie: sid, headers: { 'accept-language': 'th' } });
    expect(r.status).toBe(400);
    expect(r.body.error.msg).toBe(MESSAGES.SLIP_REQUIRED);
  });

  it('a bad date format answers the date message, never "must match format"', async () => {
    const body = { order_id: 1, contact_name: 'A', email: 'a@example.com', payment_method_id: 1, bank_code: 'KBANK', bank_account: '1', transfer_datetime: '02/03/2026', time: '09:15', transfer_amount: 100, slip: 'x.png', status: 'pending' };
    const th = await report('th', body);
    expect(th.status).toBe(400);
    expect(JSON.stringify(th.body)).not.toMatch(VALIDATOR_WORDS);
    expect(th.body.error.result.map((i: { msg: string }) => i.msg)).toContain(MESSAGES.TRANSFER_DATE_REQUIRED);
    const en = await report('en', body);
    expect(en.body.error.result.map((i: { msg: string }) => i.msg)).toContain(MESSAGES_EN.TRANSFER_DATE_REQUIRED);
  });

  it('without Accept-Language the lang cookie decides; with neither, Thai', async () => {
    const cookie = await report(null, {}, `${sid}; lang=en`);
    expect(cookie.body.error.msg).toBe(MESSAGES_EN.SLIP_REQUIRED);
    const none = await report(null, {});
    expect(none.body.error.msg).toBe(MESSAGES.SLIP_REQUIRED);
    const other = await report('fr-FR', {});
    expect(other.body.error.msg).toBe(MESSAGES.SLIP_REQUIRED);
  });
});

describe('other refusals speak the spec, in the request language', () => {
  const person = { username: 'i18nuser1', password: 'secret123', email: 'i18n1@example.com', firstname: 'A', lastname: 'B', tel: '0812345678', studentGroupKpi: 1 };

  it('a 12-digit tax id: TAX_INVOICE_INVALID with the too-short message under result, Thai and English', async () => {
    const tax = { is_tax_invoice: true, tax_person_type: 'juristic_person', tax_name_one: 'Co', tax_name_two: 'HQ', tax_payer_identification_no: '110170020345', tax_address: 'Bangkok', tax_is_delivery_by_tax_address: true };
    const th = await call(t.app, 'registerStudent', { body: { ...person, ...tax }, headers: { 'accept-language': 'th' } });
    expect(th.status).toBe(400);
    expect(th.body.error.code).toBe('TAX_INVOICE_INVALID');
    expect(th.body.error.msg).toBe(MESSAGES.TAX_INVOICE_INVALID);
    expect(JSON.stringify(th.body)).not.toMatch(VALIDATOR_WORDS);
    expect(th.body.error.result).toContainEqual(expect.objectContaining({ field: 'tax_payer_identification_no', msg: MESSAGES.TAX_ID_TOO_SHORT }));
    const en = await call(t.app, 'registerStudent', { body: { ...person, ...tax }, headers: { 'accept-language': 'en' } });
    expect(en.body.error.msg).toBe(MESSAGES_EN.TAX_INVOICE_INVALID);
    expect(en.body.error.result).toContainEqual(expect.objectContaining({ field: 'tax_payer_identification_no', msg: MESSAGES_EN.TAX_ID_TOO_SHORT }));
  });

  it('a handler message (coupon not found) comes back in English with en', async () => {
    const th = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'NO-SUCH-CODE' }, headers: { 'accept-language': 'th' } });
    expect(th.body.error.msg).toContain(MESSAGES.NOT_FOUND);
    const en = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'NO-SUCH-CODE' }, headers: { 'accept-language': 'en' } });
    expect(en.body.error.code).toBe(th.body.error.code);
    expect(en.body.error.msg).toContain(MESSAGES_EN.NOT_FOUND);
  });

  it('a missing field and a malformed body: catalogue words, the field under result', async () => {
    const missing = await call(t.app, 'getCouponByCouponCode', { body: {}, headers: { 'accept-language': 'en' } });
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', msg: MESSAGES_EN.FIELD_REQUIRED, result: [{ field: 'coupon_code', msg: MESSAGES_EN.FIELD_REQUIRED, rule: 'required' }] });
    const broken = await call(t.app, 'login', { raw: '{"username": "x",', headers: { 'content-type': 'application/json', 'accept-language': 'th' } });
    expect(broken.body.error).toMatchObject({ code: 'VALIDATION_ERROR', msg: MESSAGES.BODY_NOT_JSON });
    const badEmail = await call(t.app, 'registerStudent', { body: { ...person, email: 'not-an-email' }, headers: { 'accept-language': 'en' } });
    expect(badEmail.body.error.code).toBe('INVALID_FORMAT_EMAIL');
    expect(badEmail.body.error.result).toContainEqual(expect.objectContaining({ field: 'email', msg: MESSAGES_EN.EMAIL_INVALID }));
    expect(JSON.stringify(badEmail.body)).not.toMatch(VALIDATOR_WORDS);
  });
});

describe('e-mails in the language the buyer chose', () => {
  const customLabel = '[{"id":1,"value":"School"},{"id":2,"value":"M5"},{"id":5,"value":"Friend"}]';
  it('the welcome e-mail follows Accept-Language; without it, Thai', async () => {
    const en = await call(t.app, 'registerStudent', { body: { username: 'i18nmail_en', password: 'secret123', email: 'i18n-en@example.com', firstname: 'Jane', lastname: 'Doe', tel: '0812345678', studentGroupKpi: 1, customLabel }, headers: { 'accept-language': 'en' } });
    expect(en.status).toBe(201);
    const th = await call(t.app, 'registerStudent', { body: { username: 'i18nmail_th', password: 'secret123', email: 'i18n-th@example.com', firstname: 'สมหญิง', lastname: 'ทดสอบ', tel: '0812345678', studentGroupKpi: 1, customLabel } });
    expect(th.status).toBe(201);
    const mails = t.app.ctx.mail.list();
    const enMail = mails.find((m) => m.to === 'i18n-en@example.com')!;
    const thMail = mails.find((m) => m.to === 'i18n-th@example.com')!;
    expect(enMail.subject).toMatch(/^Welcome to /);
    expect(enMail.text).toContain('Hello Jane Doe');
    expect(`${enMail.subject}\n${enMail.text}`).not.toMatch(/สวัสดี|สมัคร|ชื่อผู้ใช้/u);
    expect(thMail.subject).toMatch(/^ยินดีต้อนรับสู่ /);
    expect(thMail.text).toContain('สมัครสมาชิกเรียบร้อยแล้ว');
  });
});

describe('the server\'s own refusals a buyer may read', () => {
  it('an unknown order answers in Thai or English, the same code', async () => {
    const th = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: 999999 }, headers: { 'accept-language': 'th' } });
    const en = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: 999999 }, headers: { 'accept-language': 'en' } });
    expect(th.status).toBe(en.status);
    expect(th.body.error.code).toBe(en.body.error.code);
    expect(th.body.error.msg).toMatch(/[\u0E00-\u0E7F]/u);
    expect(en.body.error.msg).not.toMatch(/[\u0E00-\u0E7F]/u);
  });

  it('no session: Thai by default, English with en', async () => {
    const th = await call(t.app, 'getStudentProfile', {});
    const en = await call(t.app, 'getStudentProfile', { headers: { 'accept-language': 'en' } });
    expect(th.status).toBe(401);
    expect(th.body.error.msg).toBe(MESSAGES.LOGIN_AS_STUDENT);
    expect(en.body.error.msg).toBe(MESSAGES_EN.LOGIN_AS_STUDENT);
  });
});

describe('errors carry a message by key; the error handler renders it per request', () => {
  const coupon = (code: string, lang?: string) => call(t.app, 'getCouponByCouponCode', { body: { coupon_code: code }, headers: lang ? { 'accept-language': lang } : {} });

  it.each([
    ['NOT_FOUND', () => coupon('NO-SUCH-CODE'), () => coupon('NO-SUCH-CODE', 'en'), 'NOT_FOUND'],
    ['VALIDATION_ERROR', () => call(t.app, 'getCouponByCouponCode', { body: {} }), () => call(t.app, 'getCouponByCouponCode', { body: {}, headers: { 'accept-language': 'en-GB,en;q=0.8' } }), 'FIELD_REQUIRED'],
    ['UNAUTHORIZED', () => call(t.app, 'getStudentProfile', {}), () => call(t.app, 'getStudentProfile', { headers: { 'accept-language': 'en' } }), 'LOGIN_AS_STUDENT'],
  ] as const)('%s: Thai without Accept-Language, English with en', async (_code, thai, english, key) => {
    const th = await thai();
    const en = await english();
    expect(th.status).toBe(en.status);
    expect(th.body.error.code).toBe(en.body.error.code);
    expect(th.body.error.msg).toBe(message(key, 'th'));
    expect(en.body.error.msg).toBe(message(key, 'en'));
  });

  it('a message with parameters (a full coupon names its code) in both languages', async () => {
    const th = await coupon('SOLDOUT');
    const en = await coupon('SOLDOUT', 'en');
    expect(th.body.error).toMatchObject({ code: 'COUPON_NOT_AVAILABLE', msg: renderMsg(msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'SOLDOUT' }), 'th'), result: ['SOLDOUT'] });
    expect(en.body.error).toMatchObject({ code: 'COUPON_NOT_AVAILABLE', msg: 'The coupon is fully used: SOLDOUT', result: ['SOLDOUT'] });
  });
});
