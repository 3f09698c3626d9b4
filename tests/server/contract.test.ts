// Contract tests through HTTP: every operation of the core server called, every answer checked
// against openapi.yaml by the router and again here by an independent validator (support/contract).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { multipart } from './support/requests';
import { appForFile, call, idemKey, login, testApp, type TestApp } from './support/app';
import { called, coreOperationIds } from './support/contract';

let t: TestApp;
let sid: string;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');


appForFile(testApp, ['student'], (app, [c]) => { t = app; sid = c; });

describe('auth', () => {
  it('logs in, reads the session, logs out', async () => {
    const cookie = await login(t.app, 'student2');
    const me = await call(t.app, 'getSession', { cookie });
    expect(me.body.user).toMatchObject({ username: 'student2', role: 'student', role_id: 3, is_non_member: false });
    const out = await call(t.app, 'logout', { cookie });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/sid=;/);
    expect((await call(t.app, 'getSession', { cookie })).body.user).toBeNull();
  });

  it('sets an httpOnly SameSite=Lax cookie and refuses a wrong password with 401', async () => {
    const r = await call(t.app, 'login', { body: { username: 'student', password: 'student123' } });
    expect(String(r.headers['set-cookie'])).toMatch(/HttpOnly/);
    expect(String(r.headers['set-cookie'])).toMatch(/SameSite=Lax/);
    const bad = await call(t.app, 'login', { body: { username: 'student', password: 'nope' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
  });

  it('logs in a non-member buyer with e-mail and the random secret it registered with', async () => {
    const ts = 'q3Zk0v8WlU2m6oTz4yB1cR9xN5aJ7dE0fG2hK4sL6pQ';
    const reg = await call(t.app, 'registerStudent', {
      body: { firstname: 'ผู้ซื้อ', lastname: 'ไม่เป็นสมาชิก', email: 'guest@example.com', tel: '0811111111', password: ts, is_registration_layout_four: true, studentGroupKpi: 1, customLabel: '[{"id":1,"value":"โรงเรียน"},{"id":2,"value":"ม.4"},{"id":5,"value":"Google"}]' },
    });
    expect(reg.status).toBe(201);
    const r = await call(t.app, 'loginNonMember', { body: { email: 'guest@example.com', credential: ts } });
    expect(r.status).toBe(200);
    expect(r.body.user.is_non_member).toBe(true);
    const bad = await call(t.app, 'loginNonMember', { body: { email: 'guest@example.com', credential: 'q3Zk0v8WlU2m6oTz4yB1cR9xN5aJ7dE0fG2hK4sL6pR' } });
    expect(bad.status).toBe(401);
  });
});

describe('catalogue and settings', () => {
  it('lists courses and products, with filter and keyword', async () => {
    const all = await call(t.app, 'listCourses');
    expect(all.body.data.length).toBeGreaterThanOrEqual(12);
    expect(new Set(all.body.data.map((c: { course_type: string }) => c.course_type))).toEqual(
      new Set(['Online', 'Flex', 'In-class', 'Private-Classroom', 'Live-Broadcast', 'Live-Room', 'Live-Room-Student-Camera']),
    );
    const lang = await call(t.app, 'listCourses', { query: { filter: 'languages' } });
    expect(lang.body.data.map((c: { id: number }) => c.id).sort()).toEqual([1, 7, 8]);
    const kw = await call(t.app, 'listCourses', { query: { keyword: 'Python' } });
    expect(kw.body.data.map((c: { id: number }) => c.id)).toEqual([2]);
    const products = await call(t.app, 'listProducts');
    expect(products.body.data.every((p: { course_type: string; available_qty: number }) => p.course_type === 'Product' && p.available_qty >= 0)).toBe(true);
    await call(t.app, 'listProducts', { query: { keyword: 'หนังสือ' } });
  });

  it('reads a course of every layout, a product, and 404s', async () => {
    const layouts = new Set<number | null>();
    for (const id of [1, 2, 3, 5, 6, 7, 8, 11]) {
      const r = await call(t.app, 'getCourse', { params: { id, number: 0 } });
      layouts.add(r.body.data.layout_course_detail);
    }
    expect(layouts).toEqual(new Set([null, 1, 2, 3, 4]));
    const inClass = await call(t.app, 'getCourse', { params: { id: 3, number: 0 } });
    expect(inClass.body.data).toMatchObject({ seats_available: 10, course_type: 'In-class' });
    expect(inClass.body.data.start_reg_date).toBeTruthy();
    const product = await call(t.app, 'getProduct', { params: { id: 12, number: 0 } });
    expect(product.body.data).toMatchObject({ available_qty: 25, course_type: 'Product' });
    expect((await call(t.app, 'getCourse', { params: { id: 999, number: 0 } })).status).toBe(404);
    expect((await call(t.app, 'getCourse', { params: { id: 12, number: 0 } })).status).toBe(404);
    expect((await call(t.app, 'getProduct', { params: { id: 1, number: 0 } })).status).toBe(404);
  });

  it('resolves a link path (exact, or by the id before the first hyphen)', async () => {
    expect((await call(t.app, 'getCourseByLinkPath', { body: { link_path: '1-english-for-communication' } })).body.data.id).toBe(1);
    expect((await call(t.app, 'getCourseByLinkPath', { body: { link_path: '1-old-name' } })).body.data.link_path).toBe('1-english-for-communication');
    expect((await call(t.app, 'getCourseByLinkPath', { body: { link_path: 'nothing-here' } })).status).toBe(404);
  });

  it('hides non-preview lecture files from visitors and shows them to owners', async () => {
    const anon = await call(t.app, 'getCourseVideoPlaylist', { params: { courseId: 2 } });
    const types = new Set(anon.body.data.map((l: { lectures_content_type: string }) => l.lectures_content_type));
    expect(types).toEqual(new Set(['video', 'document', 'text', 'audio', 'homework', 'quiz']));
    expect(anon.body.data.filter((l: { lectures_preview: boolean; url: string | null }) => !l.lectures_preview && l.url !== null)).toEqual([]);
    const owner = await call(t.app, 'getCourseVideoPlaylist', { params: { courseId: 2 }, cookie: sid });
    expect(owner.body.data.some((l: { lectures_preview: boolean; url: string | null }) => !l.lectures_preview && l.url)).toBe(true);
    expect((await call(t.app, 'getCourseVideoPlaylist', { params: { courseId: 999 } })).status).toBe(404);
  });

  it('answers site settings, how-to-buy, custom labels and groups', async () => {
    const s = await call(t.app, 'getSiteSettings');
    expect(s.body.data).toMatchObject({ layout_course_detail: 3, auto_cancel: 24, currency: 'THB' });
    expect(s.body.data.max_users).toBeUndefined();
    expect((await call(t.app, 'getHowToBuy')).body.data.is_enable_howtobuy).toBe(true);
    const labels = await call(t.app, 'listCustomLabels');
    expect(new Set(labels.body.data.map((l: { type_label: string }) => l.type_label))).toEqual(new Set(['inputtext', 'select', 'multiple', 'checkbox', 'radio', 'image']));
    expect((await call(t.app, 'listUserGroups')).body.data.length).toBe(1); // only selectable groups (restricted ones are the shop's to assign)
  });
});

describe('students', () => {
  it('registers, then mails the login once (outbox), and refuses duplicates', async () => {
    const body = { firstname: 'ทดสอบ', lastname: 'สมัคร', email: 'new1@example.com', tel: '0812223333', username: 'new.user_1', password: 'secret-1', studentGroupKpi: 1, customLabel: '[{"id":1,"value":"ม.ธรรมศาสตร์"},{"id":2,"value":"ปริญญาตรี"},{"id":5,"value":"Facebook"}]' };
    const r = await call(t.app, 'registerStudent', { body });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, createStudent: true });
    const mail = await call(t.app, 'sendRegistrationEmail', { body: { firstname: 'ทดสอบ', lastname: 'สมัคร', email: 'new1@example.com', username: 'new.user_1', password: 'secret-1' } });
    expect(mail.status).toBe(202);
    const nope = await call(t.app, 'sendRegistrationEmail', { body: { firstname: 'x', lastname: 'y', email: 'other@example.com', username: 'new.user_1', password: 'secret-1' } });
    expect(nope.status).toBe(404);
    expect((await call(t.app, 'registerStudent', { body: { ...body, email: 'new2@example.com' } })).body.error.code).toBe('DUPLICATE_USERNAME');
    expect((await call(t.app, 'registerStudent', { body: { ...body, username: 'new.user_2' } })).body.error.code).toBe('DUPLICATE_EMAIL');
  });

  it('reads the profile, saves tax data, lists and adds shipping addresses', async () => {
    const p = await call(t.app, 'getStudentProfile', { cookie: sid });
    expect(p.body.data).toMatchObject({ id: 2, user_fullname: 'สมชาย ใจดี' });
    const tax = await call(t.app, 'updateStudentTax', {
      cookie: sid,
      body: { is_require_tax_invoice: true, tax_person_type: 'juristic_person', tax_name_one: 'บริษัท ทดสอบ จำกัด', tax_name_two: '00000', tax_payer_identification_no: '1101700203450', tax_address: '1 ถนนพระราม 4', tax_company_certificate: 'cert.png' },
    });
    expect(tax.status).toBe(200);
    expect((await call(t.app, 'getStudentProfile', { cookie: sid })).body.data.tax_person_type).toBe('juristic_person');
    const badId = await call(t.app, 'updateStudentTax', { cookie: sid, body: { is_require_tax_invoice: true, tax_person_type: 'juristic_person', tax_name_one: 'x', tax_name_two: '00000', tax_payer_identification_no: '1101700203451', tax_address: 'x', tax_company_certificate: 'c.png' } });
    expect(badId.status).toBe(400);
    expect(badId.body.error.code).toBe('TAX_INVOICE_INVALID');
    await call(t.app, 'updateStudentTax', { cookie: sid, body: { is_require_tax_invoice: false, tax_person_type: 'normal_person' } });
    const list = await call(t.app, 'listShippingAddresses', { cookie: sid });
    expect(list.body.data.length).toBe(1);
    const add = await call(t.app, 'createShippingAddress', { cookie: sid, body: { name: 'สมชาย', tel: '0812345678', address: '5 ซอย 1', sub_district: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' } });
    expect(add.status).toBe(201);
    expect(add.body.data.is_default).toBe(false);
    // Edit it: the fields change; made default, the other one no longer is.
    const fields = { name: 'สมชาย ใจดี', tel: '0812345679', address: '7 ซอย 2', sub_district: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' };
    const edit = await call(t.app, 'updateShippingAddress', { cookie: sid, params: { addressId: add.body.data.id }, body: { ...fields, is_default: true } });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ id: add.body.data.id, ...fields, is_default: true });
    const after = (await call(t.app, 'listShippingAddresses', { cookie: sid })).body.data as { id: number; is_default: boolean }[];
    expect(after.map((a) => [a.id, a.is_default])).toEqual([[add.body.data.id, true], [list.body.data[0].id, false]]);
    // Another student's address, or a bad postcode: refused.
    const other = await login(t.app, 'student2');
    expect((await call(t.app, 'updateShippingAddress', { cookie: other, params: { addressId: add.body.data.id }, body: fields })).status).toBe(404);
    expect((await call(t.app, 'updateShippingAddress', { cookie: sid, params: { addressId: add.body.data.id }, body: { ...fields, postcode: '1033' } })).status).toBe(400);
    // back to the seeded default for the tests after
    await call(t.app, 'updateShippingAddress', { cookie: sid, params: { addressId: list.body.data[0].id }, body: { ...list.body.data[0], id: undefined, is_default: true } });
  });
});

describe('uploads', () => {
  it('stores an image, serves it, and reports storage', async () => {
    const m = multipart('imageinput', 'slip.png', 'image/png', PNG);
    const r = await call(t.app, 'uploadFile', { raw: m.raw, headers: m.headers, cookie: sid });
    expect(r.status).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: `/uploads/${r.body.fileName[0]}` });
    expect(served.statusCode).toBe(200);
    const s = await call(t.app, 'getStorageDetails', { cookie: sid });
    expect(s.body.data.used_storage_gb).toBeGreaterThan(0);
    const bad = multipart('imageinput', 'page.html', 'text/html', Buffer.from('<script>'));
    const refused = await call(t.app, 'uploadFile', { raw: bad.raw, headers: bad.headers, cookie: sid });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_FILE_TYPE', msg: 'File type is not allow to upload.' });
  });

  it('a registration visitor uploads with the upload token', async () => {
    const m = multipart('imageinput', 'me.png', 'image/png', PNG);
    expect((await call(t.app, 'uploadFile', { raw: m.raw, headers: m.headers })).body.error.code).toBe('UPLOAD_TOKEN_REQUIRED');
    const tok = await call(t.app, 'createUploadToken');
    expect(tok.status).toBe(200);
    const upl = String(tok.headers['set-cookie']).split(';')[0]!;
    expect((await call(t.app, 'uploadFile', { raw: m.raw, headers: m.headers, cookie: upl })).status).toBe(200);
  });
});

describe('demo catalogue pictures', () => {
  it('every course, product and teacher picture of the seed is served (no 404 on the demo shop)', async () => {
    const list = await call(t.app, 'listCourses');
    const products = await call(t.app, 'listProducts');
    const images = [...list.body.data, ...products.body.data].map((c: { image: string | null }) => c.image).filter((i: string | null): i is string => !!i);
    expect(images.length).toBeGreaterThan(5);
    for (const url of new Set(images)) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toMatch(/^image\//);
    }
  });
});

describe('progress', () => {
  it('reads progress, last lecture and countdown of an owned course', async () => {
    const p = await call(t.app, 'getStudentCourseProgress', { cookie: sid, params: { userId: 2, courseId: 2 } });
    expect(p.body.data.completed_lecture_ids.length).toBe(3);
    const l = await call(t.app, 'getLastViewedLecture', { cookie: sid, params: { userId: 2, courseId: 2 } });
    expect(l.body.data.lectures_id).toBeTypeOf('number');
    const c = await call(t.app, 'getCourseCountdown', { cookie: sid, params: { courseId: 2 } });
    expect(c.body.data).toMatchObject({ planType: 'Actual', isTermUnit2: true, termUnit: 'Hour(s)' });
    expect((await call(t.app, 'getCourseCountdown', { cookie: sid, params: { courseId: 3 } })).status).toBe(404);
  });
});

describe('cart, coupons, plans, promotions', () => {
  it('saves and reads a visitor cart and the student cart, then clears them', async () => {
    const save = await call(t.app, 'saveCartPublic', { params: { userId: 'v_abc123' }, body: { lines: [{ course_id: 1, pricing_plan_id: 1, qty: 1 }, { course_id: 12, pricing_plan_id: 22, qty: 2 }], coupon_ids: [1], payment_method_id: 1 } });
    expect(save.body.data.lines.map((l: { price: number }) => l.price)).toEqual([199000, 45000]);
    expect((await call(t.app, 'getCartPublic', { params: { userId: 'v_abc123' } })).body.data.lines.length).toBe(2);
    expect((await call(t.app, 'getCartPublic', { params: { userId: 'v_unknown' } })).body.data).toMatchObject({ cart_id: null, lines: [] });
    await call(t.app, 'saveCartPrivate', { cookie: sid, body: { lines: [{ course_id: 3, pricing_plan_id: 9, qty: 1 }], coupon_ids: [], payment_method_id: 8 } });
    expect((await call(t.app, 'getCartPrivate', { cookie: sid })).body.data.payment_method_id).toBe(8);
    expect((await call(t.app, 'clearCart', { body: { user_id: 'v_abc123' } })).status).toBe(200);
    expect((await call(t.app, 'clearCart', { cookie: sid, body: { user_id: '2' } })).status).toBe(200);
    expect((await call(t.app, 'getCartPrivate', { cookie: sid })).body.data.lines).toEqual([]);
    const dup = await call(t.app, 'saveCartPrivate', { cookie: sid, body: { lines: [{ course_id: 3, pricing_plan_id: 9, qty: 1 }, { course_id: 3, pricing_plan_id: 9, qty: 1 }], coupon_ids: [], payment_method_id: 1 } });
    expect(dup.body.error.code).toBe('duplicate_course');
    // A book's quantity stays within its stock; the lines tell the stock.
    const book = (await t.db.query<{ id: number; stock: number; plan: number }>(`SELECT c.id, c.stock, p.id AS plan FROM courses c JOIN pricing_plans p ON p.course_id = c.id WHERE c.is_product AND c.stock IS NOT NULL ORDER BY c.id LIMIT 1`)).rows[0]!;
    const within = await call(t.app, 'saveCartPublic', { params: { userId: 'v_books' }, body: { lines: [{ course_id: book.id, pricing_plan_id: book.plan, qty: Math.min(2, book.stock) }], coupon_ids: [], payment_method_id: 1 } });
    expect(within.body.data.lines[0]).toMatchObject({ qty: Math.min(2, book.stock), stock: book.stock });
    const over = await call(t.app, 'saveCartPublic', { params: { userId: 'v_books' }, body: { lines: [{ course_id: book.id, pricing_plan_id: book.plan, qty: book.stock + 1 }], coupon_ids: [], payment_method_id: 1 } });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('VALIDATION_ERROR');
    const wrongPlan = await call(t.app, 'saveCartPublic', { params: { userId: 'v_x' }, body: { lines: [{ course_id: 3, pricing_plan_id: 1, qty: 1 }], coupon_ids: [], payment_method_id: 1 } });
    expect(wrongPlan.body.error.code).toBe('dont_have_pricing');
  });

  it('checks coupon codes against the cart', async () => {
    expect((await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'welcome10' } })).body.data.code).toBe('WELCOME10');
    expect((await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'NOPE' } })).status).toBe(404);
    // A coupon past its end date says so (not "not found").
    const expired = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'EXPIRED' } });
    expect(expired.status).toBe(422);
    expect(expired.body.error).toMatchObject({ code: 'COUPON_EXPIRED', msg: 'คูปองนี้หมดอายุแล้ว' });
    await t.db.query(`UPDATE coupons SET starts_at = $1, ends_at = NULL WHERE code = 'EXPIRED'`, [new Date(t.clock.now().getTime() + 2 * 86_400_000)]);
    const early = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'EXPIRED' } });
    expect(early.body.error).toMatchObject({ code: 'COUPON_NOT_YET_VALID', msg: 'คูปองนี้ยังไม่ถึงวันที่เริ่มใช้' });
    await t.db.query(`UPDATE coupons SET status = 0 WHERE code = 'EXPIRED'`);
    expect((await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'EXPIRED' } })).status).toBe(404);
    const full = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'SOLDOUT' } });
    expect(full.body.error).toMatchObject({ code: 'COUPON_NOT_AVAILABLE', result: ['SOLDOUT'] });
    const pay = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'SAVE500', course_ids: [1], payment_method_id: 9 } });
    expect(pay.body.error.code).toBe('COUPON_NOT_SUPPORTED_PAYMENT');
    const course = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'SAVE500', course_ids: [7], payment_method_id: 1 } });
    expect(course.body.error.code).toBe('COUPON_NOT_SUPPORTED_COURSE');
    const enough = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'BUNDLE2', course_ids: [1], payment_method_id: 1 } });
    expect(enough.body.error.code).toBe('COUPON_NOT_ENOUGH_COURSES');
    const dup = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'WELCOME10', course_ids: [1], payment_method_id: 1, applied_coupon_ids: [1] } });
    expect(dup.status).toBe(409);
    const none = await call(t.app, 'getCouponByCouponCode', { body: { coupon_code: 'WELCOME10', course_ids: [1], payment_method_id: null } });
    expect(none.body.error.code).toBe('COUPON_NO_PAYMENT_METHOD');
    expect((await call(t.app, 'getAllCoupons', { body: { couponID: [1, 3, 999] } })).body.data.map((c: { id: number }) => c.id)).toEqual([1, 3]);
  });

  it('lists the plans a viewer may see', async () => {
    const anon = await call(t.app, 'getAllPricingPlans', { body: { courseID: [1] } });
    const ids = anon.body.data.map((p: { id: number }) => p.id);
    expect(ids).toEqual([1, 2, 3]); // member-only listed, free-for-student and renewal hidden
    const owner = await call(t.app, 'getAllPricingPlans', { cookie: sid, body: { courseID: [1, 2] } });
    const seen = owner.body.data.map((p: { id: number }) => p.id);
    expect(seen).toContain(5); // the student owns the free Excel course
    expect(seen).toContain(8); // owns Python: its renewal plan
    expect(seen).not.toContain(6);
    const stale = await call(t.app, 'getAllPricingPlans', { cookie: 'sid=expired-or-unknown', body: { courseID: [1] } });
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('PERMISSION_DENIED');
  });

  it('lists promotions and shipping fees', async () => {
    const p = await call(t.app, 'getAllPromotions');
    expect(p.body.data.map((x: { id: number }) => x.id)).toEqual([1, 2]);
    expect((await call(t.app, 'listShippingFees')).body.data.length).toBe(3);
  });

  it('refuses the book-store cart while sync mode is off', async () => {
    const r = await call(t.app, 'sendCartToChulabook', { cookie: sid, body: { user_id: 2, email: 'student@example.com', course_id: [12] } });
    expect(r.status).toBe(403);
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{is_bookstore_sync_cart}', 'true') WHERE id = 1`);
    const noAddr = await call(t.app, 'sendCartToChulabook', { cookie: sid, body: { user_id: 2, email: 'student@example.com', course_id: [12] } });
    expect(noAddr.body.error.code).toBe('SHIPPING_ADDRESS_REQUIRED');
    const ok = await call(t.app, 'sendCartToChulabook', { cookie: sid, body: { user_id: 2, email: 'student@example.com', course_id: [12, 13], shipping_address_id: 1, price: 1, totalPrice: 1 } });
    expect(ok.body.sucess).toBe(true);
    expect(ok.body.location).toContain('total=77000');
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{is_bookstore_sync_cart}', 'false') WHERE id = 1`);
  });
});

describe('orders', () => {
  it('creates, reads, lists and deletes an order', async () => {
    const r = await call(t.app, 'createOrder', {
      cookie: sid,
      headers: { 'idempotency-key': idemKey() },
      body: { user_id: 2, course_id: [7], pricingplan_id: [15], payment_method_id: 1, currency_code: 'THB' },
    });
    expect(r.status).toBe(201);
    expect(r.body.order_detail).toMatchObject({ price: 690000, total_amount: 690000, payment_status: 'notYetReceived' });
    const id = r.body.orderId;
    const read = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: id } });
    expect(read.body.data).toMatchObject({ id, total_amount: 690000, email: 'student@example.com', outcome: { state: 'awaitingPayment' } });
    const byToken = await call(t.app, 'getOrderByToken', { cookie: sid, params: { orderToken: read.body.data.order_token } });
    expect(byToken.body.data).toMatchObject({ id, outcome: { state: 'awaitingPayment' } });
    const owned = await call(t.app, 'listOrderedCourses', { cookie: sid });
    expect(owned.body.data.find((c: { courseID: number }) => c.courseID === 7)).toMatchObject({ status: 'notYetReceived', order_id: id });
    const mine = await call(t.app, 'listMyOrders', { cookie: sid, query: { limit: '2' } });
    expect(mine.body.data[0].id).toBe(id);
    expect(mine.body.data.length).toBe(2);
    // What was bought: course name, plan name, quantity, price.
    const plan = (await t.db.query<{ name: string }>('SELECT name FROM pricing_plans WHERE id = 15')).rows[0]!.name;
    expect(mine.body.data[0].courses).toEqual([expect.objectContaining({ course_id: 7, pricingplan_id: 15, pricingplan_name: plan, qty: 1, original_pricing_price: 690000, discount: 0 })]);
    expect((await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: id } })).status).toBe(200);
    expect((await call(t.app, 'getOrder', { cookie: sid, params: { orderId: id } })).status).toBe(404);
    expect((await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: id } })).status).toBe(404);
  });
});

describe('documents', () => {
  it('lists a paid order’s receipt and downloads it as PDF', async () => {
    const o = await call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, course_id: [12], pricingplan_id: [22], shipping_address_id: 1, shipping_fee_id: 2, payment_method_id: 1, currency_code: 'THB' } });
    expect(o.status, JSON.stringify(o.body)).toBe(201);
    const orderId = o.body.orderId as number;
    expect((await call(t.app, 'listOrderDocuments', { cookie: sid, params: { orderId } })).body.data).toEqual([]);
    await t.app.ctx.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId, approveBy: 'test', paymentMethodId: 1 }));
    const list = await call(t.app, 'listOrderDocuments', { cookie: sid, params: { orderId } });
    expect(list.body.data).toEqual([expect.objectContaining({ kind: 'receipt', amount: 50_000, currency_code: 'THB' })]);
    const pdf = await call(t.app, 'downloadDocumentPdf', { cookie: sid, params: { documentId: list.body.data[0].id } });
    expect(pdf.status).toBe(200);
    expect(pdf.raw.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Nothing was withheld from this order: no withholding certificate is taken (tests/server/withholding-certificate.test.ts has the rest).
    expect(list.body.withholding).toBeNull();
    const m = multipart('file', '50tawi.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    const cert = await call(t.app, 'uploadWithholdingCertificate', { cookie: sid, params: { orderId }, raw: m.raw, headers: m.headers });
    expect(cert.status).toBe(409);
    expect(cert.body.error.code).toBe('WITHHOLDING_NOT_WITHHELD');
  });
});

describe('coverage of the contract', () => {
  it('quotes a cart; mails a sign-in link, opens it, and sets a password with the current one', async () => {
    const q = await call(t.app, 'quoteCart', { cookie: sid, body: { course_id: [1], pricingplan_id: [1], currency_code: 'THB', payment_method_id: 1 } });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(await call(t.app, 'requestSignInLink', { body: { email: 'student2@example.com' } })).toMatchObject({ status: 202 });
    const mails = readdirSync(t.dirs.outbox).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(t.dirs.outbox, f), 'utf8')) as { to: string; tag: string; text: string });
    const link = mails.find((m) => m.tag === 'signin-link' && m.to.includes('student2@example.com'));
    const token = /\/public\/auth\/link\/([A-Za-z0-9_-]+)/.exec(link?.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const open = await call(t.app, 'openSignInLink', { params: { token: token! } });
    expect(open.status).toBe(303);
    const cookie = String(open.headers['set-cookie']).split(';')[0]!;
    const set = await call(t.app, 'setStudentPassword', { cookie, body: { password: 'student456', current_password: 'student123' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await call(t.app, 'login', { body: { username: 'student2', password: 'student456' } })).status).toBe(200);
  });

  it('called every core operationId at least once (this file runs last in its worker)', () => {
    const missing = coreOperationIds().filter((id) => !called.has(id));
    expect(missing).toEqual([]);
  });
});
