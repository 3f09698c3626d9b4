// One quote: POST /public/cart/quote and POST /private/cart/order price with the same server
// function, so every amount the buyer is shown is the order's. The whole matrix (THB/USD ×
// course/book/mixed × coupon/promotion/none × shipping option × no tax/withholding 3%/1%) asserts
// quote == order, refusals included; then the promotion rule, per-currency shipping fees and
// stale quotes (two tabs, a login merge, the back office changing a price, a fee or the stock).
import { describe, expect, it } from 'vitest';
import { appForFile, call, idemKey, testApp, type TestApp } from './support/app';

let t: TestApp;
let sid2: string; // student2 (id 3): juristic person asking for a tax invoice, owns English (1)
let sid: string; // student (id 2): a natural person, owns Python (2) and Excel (9)
let address2: number;

type Body = Record<string, unknown>;
const quote = (cookie: string | undefined, body: Body) => call(t.app, 'quoteCart', { ...(cookie ? { cookie } : {}), body });
const order = (cookie: string, body: Body) => call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': idemKey() }, body });
const drop = (cookie: string, orderId: number) => call(t.app, 'deleteOrder', { cookie, body: { order_id: orderId } });

appForFile(testApp, ['student2', 'student'], async (app, [c0, c1]) => {
  t = app;
  sid2 = c0;
  sid = c1;
  address2 = (await t.db.query<{ id: number }>('SELECT id FROM shipping_addresses WHERE user_id = 3 ORDER BY id LIMIT 1')).rows[0]!.id;
});

// Python (2, plan 6: ฿1,490 / US$45) + Japanese (7, plan 15: ฿6,900 / US$199): promotion 2 (Python 10%), BUNDLE2 (coupon 3, P2 15%).
// Grammar book (12, plan 22: ฿450 / US$13) ×2 + Python book (13, plan 23: ฿320 / US$9.50): BOOK100 (coupon 4, bank transfer only).
// Mixed: Python + Grammar book ×1: promotion 2, WELCOME10 (coupon 1).
const CARTS = {
  course: { course_id: [2, 7], pricingplan_id: [6, 15], courses: [], coupon: 3, promotion: 2 },
  book: { course_id: [12, 13], pricingplan_id: [22, 23], courses: [{ course_id: 12, pricingplan_id: 22, qty: 2 }], coupon: 4, promotion: 2 },
  mixed: { course_id: [2, 12], pricingplan_id: [6, 22], courses: [], coupon: 1, promotion: 2 },
} as const;
const CURRENCIES = [
  { currency_code: 'THB', payment_method_id: 1 },
  { currency_code: 'USD', payment_method_id: 1 },
] as const;
const DISCOUNTS = ['coupon', 'promotion', 'none'] as const;
const FEES = [1, 2, 3] as const; // registered mail, EMS, Kerry (no USD price)
const TAXES = [null, 3, 1] as const;

interface Cell {
  name: string;
  body: Body;
}

function cells(): Cell[] {
  const out: Cell[] = [];
  for (const cur of CURRENCIES)
    for (const [kind, cart] of Object.entries(CARTS))
      for (const d of DISCOUNTS)
        for (const fee of kind === 'course' ? [null] : FEES)
          for (const w of TAXES) {
            const body: Body = {
              user_id: 3,
              course_id: [...cart.course_id],
              pricingplan_id: [...cart.pricingplan_id],
              courses: [...cart.courses],
              ...cur,
              ...(d === 'coupon' ? { coupon_id: [cart.coupon] } : {}),
              ...(d === 'promotion' ? { promotion_id: cart.promotion } : {}),
              ...(fee !== null ? { shipping_fee_id: fee, shipping_address_id: address2 } : {}),
              ...(w !== null ? { is_withholding: true, withholding_percent: w } : {}),
            };
            out.push({ name: `${cur.currency_code} ${kind} ${d} fee=${fee ?? '-'} wht=${w ?? '-'}`, body });
          }
  return out;
}

describe('quote == order over the whole matrix', () => {
  it('every cell: the order has the quoted amounts, or both refuse with the same code', async () => {
    let created = 0;
    let refused = 0;
    const seen = new Set<string>();
    for (const cell of cells()) {
      const { user_id: _u, ...choices } = cell.body;
      const q = await quote(sid2, choices);
      const o = await order(sid2, { ...cell.body, ...(q.status === 200 ? { quote_version: q.body.data.version } : {}) });
      if (q.status !== 200) {
        // The quote cannot price these choices: the order refuses them the same way.
        expect(o.status, cell.name).toBe(q.status);
        expect(o.body.error.code, cell.name).toBe(q.body.error.code);
        refused++;
        seen.add(q.body.error.code);
        continue;
      }
      const qd = q.body.data;
      expect(qd.total_amount, cell.name).toBe(qd.price - qd.discount + qd.shipping_fee - qd.withholding_price);
      if (qd.problem) {
        expect(o.status, cell.name).not.toBe(201);
        expect(o.body.error.code, cell.name).toBe(qd.problem.code);
        refused++;
        seen.add(qd.problem.code);
        continue;
      }
      expect(o.status, `${cell.name}: ${JSON.stringify(o.body)}`).toBe(201);
      const d = o.body.order_detail;
      expect(
        { currency: d.currency_code, price: d.price, discount: d.discount, shipping: d.shipping_fee, withholding: d.withholding_price, total: d.total_amount, codes: d.coupon_list_code },
        cell.name,
      ).toEqual({ currency: qd.currency_code, price: qd.price, discount: qd.discount, shipping: qd.shipping_fee, withholding: qd.withholding_price, total: qd.total_amount, codes: qd.coupon_list_code });
      expect(
        d.order_course_list.map((l: { course_id: number; qty: number; original_pricing_price: number; discount: number }) => [l.course_id, l.qty, l.original_pricing_price, l.discount]),
        cell.name,
      ).toEqual(qd.lines.map((l: { course_id: number; qty: number; original_pricing_price: number; discount: number }) => [l.course_id, l.qty, l.original_pricing_price, l.discount]));
      // What is stored is what was quoted.
      const row = (await t.db.query<{ price: string; discount: string; shipping_fee: string; withholding_price: string; total: string }>(
        'SELECT price, discount, shipping_fee, withholding_price, total FROM orders WHERE id = $1',
        [o.body.orderId],
      )).rows[0]!;
      expect([row.price, row.discount, row.shipping_fee, row.withholding_price, row.total].map(Number), cell.name).toEqual([qd.price, qd.discount, qd.shipping_fee, qd.withholding_price, qd.total_amount]);
      created++;
      expect((await drop(sid2, o.body.orderId)).status, cell.name).toBe(200);
    }
    // The matrix really orders (and really refuses): not a matrix of refusals.
    expect(created).toBeGreaterThanOrEqual(40);
    expect(refused).toBeGreaterThan(0);
    // A USD cart is never charged the THB shipping number, and Kerry (no USD price) is refused in USD.
    expect(seen.has('cart_pricing_usd_failed')).toBe(true);
    expect(seen.has('PROMOTION_NOT_SELECTED')).toBe(true);
  }, 240_000);

  it('a USD book cart: the quoted and ordered shipping fee is the USD price (US$2.00 EMS), not the THB number', async () => {
    const choices = { course_id: [12], pricingplan_id: [22], currency_code: 'USD', payment_method_id: 1, shipping_fee_id: 2, shipping_address_id: address2 };
    const q = await quote(sid2, choices);
    expect(q.status).toBe(200);
    expect(q.body.data).toMatchObject({ currency_code: 'USD', price: 1300, shipping_fee: 200, total_amount: 1500, problem: null });
    const o = await order(sid2, { user_id: 3, ...choices, quote_version: q.body.data.version });
    expect(o.status).toBe(201);
    expect(o.body.order_detail).toMatchObject({ shipping_fee: 200, total_amount: 1500 });
    await drop(sid2, o.body.orderId);
  });

  it('shipping fees list a price per currency; an option without a USD price says so', async () => {
    const r = await call(t.app, 'listShippingFees');
    expect(r.status).toBe(200);
    expect(r.body.data.map((f: { id: number; fee: number; fee_usd: number | null }) => [f.id, f.fee, f.fee_usd])).toEqual([
      [1, 3000, 100],
      [2, 5000, 200],
      [3, 6000, null],
    ]);
  });

  it('a visitor is quoted too (no withholding, no address book)', async () => {
    const q = await quote(undefined, { course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1 });
    expect(q.status).toBe(200);
    expect(q.body.data).toMatchObject({ price: 690000, total_amount: 690000, problem: null });
    const w = await quote(undefined, { course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1, is_withholding: true });
    expect(w.body.data).toMatchObject({ withholding_price: 0, problem: { code: 'TAX_INVOICE_INVALID' } });
  });

  it('withholding is offered to a juristic person, not to a logged-in natural person (the amount and settings alike)', async () => {
    const body = { course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1 };
    const juristic = await quote(sid2, body);
    expect(juristic.body.data).toMatchObject({ price: 690000, withholding_offered: true });
    const natural = await quote(sid, body);
    expect(natural.body.data).toMatchObject({ price: 690000, withholding_offered: false, withholding_price: 0 });
    // asked anyway: no withholding taken, and the reason
    const asked = await quote(sid, { ...body, is_withholding: true, withholding_percent: 3 });
    expect(asked.body.data).toMatchObject({ withholding_offered: false, withholding_price: 0, total_amount: 690000, problem: { code: 'TAX_INVOICE_INVALID' } });
  });
});

describe('the promotion rule is the server\'s', () => {
  it('a usable promotion left unselected (no coupon either) is refused with the spec\'s message; the quote names the best one', async () => {
    const choices = { course_id: [2, 7], pricingplan_id: [6, 15], currency_code: 'THB', payment_method_id: 1 };
    const q = await quote(sid2, choices);
    expect(q.body.data).toMatchObject({ best_promotion_id: 2, problem: { code: 'PROMOTION_NOT_SELECTED', msg: 'คำสั่งซื้อของคุณมีโปรโมชั่นร่วม กรุณาเลือกโปรโมชั่น' } });
    const bare = await order(sid2, { user_id: 3, ...choices });
    expect(bare.status).toBe(422);
    expect(bare.body.error).toMatchObject({ code: 'PROMOTION_NOT_SELECTED', msg: 'คำสั่งซื้อของคุณมีโปรโมชั่นร่วม กรุณาเลือกโปรโมชั่น' });
    const en = await call(t.app, 'createOrder', { cookie: sid2, headers: { 'idempotency-key': idemKey(), 'accept-language': 'en' }, body: { user_id: 3, ...choices } });
    expect(en.body.error.msg).toBe('your order has a joint promotion, please choose a promotion');
    const chosen = await order(sid2, { user_id: 3, ...choices, promotion_id: 2 });
    expect(chosen.status).toBe(201);
    expect(chosen.body.order_detail.discount).toBe(14900); // 10% of ฿1,490
    await drop(sid2, chosen.body.orderId);
    // A coupon chosen instead counts as the choice.
    const coupon = await order(sid2, { user_id: 3, ...choices, coupon_id: [3] });
    expect(coupon.status).toBe(201);
    await drop(sid2, coupon.body.orderId);
  });

  it('a cart no promotion applies to needs none', async () => {
    const o = await order(sid2, { user_id: 3, course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1 });
    expect(o.status).toBe(201);
    await drop(sid2, o.body.orderId);
  });
});

describe('stale quotes are refused', () => {
  const saveCart = (cookie: string, lines: { course_id: number; pricing_plan_id: number; qty: number }[]) =>
    call(t.app, 'saveCartPrivate', { cookie, body: { lines, coupon_ids: [], payment_method_id: 1 } });
  const orderCount = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE user_id = 2')).rows[0]!.n);

  it('two tabs: the saved cart lost a line after the quote -> 409 QUOTE_STALE in the buyer\'s language, no order; the fresh quote orders', async () => {
    expect((await saveCart(sid, [{ course_id: 7, pricing_plan_id: 15, qty: 1 }, { course_id: 3, pricing_plan_id: 9, qty: 1 }])).status).toBe(200);
    const choices = { course_id: [7, 3], pricingplan_id: [15, 9], currency_code: 'THB', payment_method_id: 1, from_cart: true };
    const shown = await quote(sid, choices);
    expect(shown.body.data.problem).toBeNull();
    // Tab 2 removes course 3.
    expect((await saveCart(sid, [{ course_id: 7, pricing_plan_id: 15, qty: 1 }])).status).toBe(200);
    const before = await orderCount();
    const stale = await order(sid, { user_id: 2, ...choices, quote_version: shown.body.data.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'QUOTE_STALE', msg: expect.stringContaining('ตะกร้าของคุณมีการเปลี่ยนแปลง') });
    const en = await call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey(), 'accept-language': 'en' }, body: { user_id: 2, ...choices, quote_version: shown.body.data.version } });
    expect(en.body.error.msg).toMatch(/^Your cart has changed/);
    expect(await orderCount()).toBe(before);
    // The page shows the server's cart, quotes it and orders it.
    const server = await call(t.app, 'getCartPrivate', { cookie: sid });
    expect(server.body.data.lines.map((l: { courseID: number }) => l.courseID)).toEqual([7]);
    const fresh = await quote(sid, { ...choices, course_id: [7], pricingplan_id: [15] });
    const ok = await order(sid, { user_id: 2, ...choices, course_id: [7], pricingplan_id: [15], quote_version: fresh.body.data.version });
    expect(ok.status).toBe(201);
    expect(ok.body.order_detail.total_amount).toBe(fresh.body.data.total_amount);
    await drop(sid, ok.body.orderId);
  });

  it('a login merge added a line to the saved cart after the quote -> QUOTE_STALE', async () => {
    expect((await saveCart(sid, [{ course_id: 7, pricing_plan_id: 15, qty: 1 }])).status).toBe(200);
    const choices = { course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1, from_cart: true };
    const shown = await quote(sid, choices);
    // The visitor's cart (course 3) joins the student's at login (mergeVisitorCart saves the union).
    expect((await saveCart(sid, [{ course_id: 7, pricing_plan_id: 15, qty: 1 }, { course_id: 3, pricing_plan_id: 9, qty: 1 }])).status).toBe(200);
    const stale = await order(sid, { user_id: 2, ...choices, quote_version: shown.body.data.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('QUOTE_STALE');
    await saveCart(sid, []);
  });

  it('the back office changed a price between showing and paying -> QUOTE_STALE; the new quote shows the new price', async () => {
    const choices = { course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1 };
    const shown = await quote(sid, choices);
    expect(shown.body.data.total_amount).toBe(690000);
    await t.db.query('UPDATE pricing_plans SET price = 720000 WHERE id = 15');
    try {
      const stale = await order(sid, { user_id: 2, ...choices, quote_version: shown.body.data.version });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe('QUOTE_STALE');
      const fresh = await quote(sid, choices);
      expect(fresh.body.data.total_amount).toBe(720000);
      const ok = await order(sid, { user_id: 2, ...choices, quote_version: fresh.body.data.version });
      expect(ok.body.order_detail.total_amount).toBe(720000);
      await drop(sid, ok.body.orderId);
    } finally {
      await t.db.query('UPDATE pricing_plans SET price = 690000 WHERE id = 15');
    }
  });

  it('the back office changed a shipping fee or the stock between showing and paying: refused with a clear code', async () => {
    const choices = { course_id: [12], pricingplan_id: [22], currency_code: 'THB', payment_method_id: 1, shipping_fee_id: 2, shipping_address_id: address2 };
    const shown = await quote(sid2, choices);
    await t.db.query('UPDATE shipping_fees SET fee = 5500 WHERE id = 2');
    try {
      const stale = await order(sid2, { user_id: 3, ...choices, quote_version: shown.body.data.version });
      expect(stale.body.error.code).toBe('QUOTE_STALE');
    } finally {
      await t.db.query('UPDATE shipping_fees SET fee = 5000 WHERE id = 2');
    }
    const again = await quote(sid2, choices);
    expect(again.body.data.version).toBe(shown.body.data.version); // same inputs, same numbers: same version
    await t.db.query('UPDATE courses SET stock = 0 WHERE id = 12');
    try {
      const gone = await order(sid2, { user_id: 3, ...choices, quote_version: again.body.data.version });
      expect(gone.status).toBe(422);
      expect(gone.body.error).toMatchObject({ code: 'TIME_LEFT', result: [12] });
    } finally {
      await t.db.query('UPDATE courses SET stock = 25 WHERE id = 12');
    }
  });

  it('an order without quote_version (older clients) is priced as before', async () => {
    const o = await order(sid, { user_id: 2, course_id: [7], pricingplan_id: [15], currency_code: 'THB', payment_method_id: 1 });
    expect(o.status).toBe(201);
    await drop(sid, o.body.orderId);
  });
});
