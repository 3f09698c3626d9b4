import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createActor } from 'xstate';
import { cartMachine, type CartInput } from '../../machines/cart/cart.machine';
import { taxGateMachine } from '../../machines/tax/tax-gate.machine';
import { CouponForm, PromotionList, SwitchModals, WithholdingPanel } from '../../src/features/checkout/components/CartPanel';
import { TaxModals } from '../../src/features/checkout/components/TaxModals';
import { AccessCountdown } from '../../src/features/checkout/components/AccessCountdown';
import { cardFromQuery, returnOrderId } from '../../src/features/payments/CardReturnPage';
import { OrdersPage, ordersLoader } from '../../src/features/orders/OrdersPage';
import { json, scriptFetch } from '../support/ui-fetch';
import { PaymentHost } from '../../src/features/payments/PaymentHost';
import { ThankYouPage, thankYouLoader } from '../../src/features/thankyou/ThankYouPage';
import { CartPage } from '../../src/features/cart/CartPage';
import { followReturnLink } from '../../src/features/cart/loader';
import { SessionProvider } from '../../src/session';
import { SessionModals } from '../../src/session';
import { Header } from '../../src/app/RootLayout';
import { Notifications, toasts } from '../../src/ui';
import { effectSpies, scripted } from '../support/ui-actors';
import { scriptedCheckout } from '../support/ui-checkout';
import { pageData, plan, student } from './fixtures';
import { MSG } from '../../domain/messages';
import { ATTEMPTS_BEFORE_UNAVAILABLE, closeRealtime, openRealtime } from '../../src/api/realtime';

const taxSettings = { vat_value: 7, is_enable_vat: true, is_enable_tax_invoice: true, is_enable_withholding_tax: true };

describe('tax modals (tax gate)', () => {
  it('withholding for a normal person asks to change person type, then the juristic tax-invoice modal saves the fields', async () => {
    const user = userEvent.setup();
    const fx = effectSpies();
    const s = scripted({
      getStudentProfile: { ok: { success: true, data: { firstname: 'ก', lastname: 'ข', email: 'a@b.co', tel: null, address: null, is_require_tax_invoice: false, tax_person_type: 'normal_person' } } },
      updateStudentTax: { ok: { success: true } },
      uploadFile: { ok: { success: true, fileName: ['cert-1.png'] } },
    });
    const ref = createActor(taxGateMachine.provide({ actors: s.actors, actions: fx.actions }), {
      input: { price: 500000, discount: 0, currency: 'THB', settings: taxSettings, withholding: true },
    }).start();
    render(<TaxModals taxRef={ref} />);
    const question = await screen.findByRole('dialog', { name: 'เปลี่ยนประเภทผู้เสียภาษี' });
    await user.click(within(question).getByRole('button', { name: 'ยืนยัน' }));
    const modal = await screen.findByRole('dialog', { name: 'ข้อมูลใบกำกับภาษี' });
    expect(modal.style.maxWidth).toBe('750px');
    // not dismissable by the mask
    await user.click(document.querySelector('.ui-modal-mask') as HTMLElement);
    expect(screen.getByRole('dialog', { name: 'ข้อมูลใบกำกับภาษี' })).toBe(modal);
    await user.click(within(modal).getByTestId('tax-submit'));
    expect(fx.notices).toContainEqual(expect.objectContaining({ message: MSG.TAX_INVOICE_INVALID }));
    within(modal).getByText('กรุณากรอกชื่อบริษัท');
    await user.type(within(modal).getByLabelText(/ชื่อบริษัท/), 'บริษัท ทดสอบ จำกัด');
    await user.type(within(modal).getByLabelText(/สาขา/), '00000');
    await user.type(within(modal).getByLabelText(/เลขประจำตัวผู้เสียภาษี/), '1101700203450');
    await user.type(within(modal).getByLabelText(/ที่อยู่สำหรับออกใบกำกับภาษี/), '1 ถนนสีลม กรุงเทพฯ 10500');
    await user.upload(within(modal).getByTestId('tax-certificate-input'), new File(['png'], 'cert.png', { type: 'image/png' }));
    await within(modal).findByText('cert-1.png');
    await user.click(within(modal).getByTestId('tax-submit'));
    await waitFor(() => expect([ref.getSnapshot().value, ref.getSnapshot().context.errors]).toEqual(['passed', []]));
    expect(s.inputsOf('updateStudentTax')[0]).toMatchObject({ tax_person_type: 'juristic_person', tax_name_one: 'บริษัท ทดสอบ จำกัด', tax_payer_identification_no: '1101700203450', is_require_tax_invoice: true, tax_company_certificate: 'cert-1.png' });
  });
});

describe('cart panel modals', () => {
  const input: CartInput = {
    lines: [
      { key: '1-11', course_id: 1, pricing_plan_id: 11, qty: 1, course_type: 'Online', course_name: 'อังกฤษ', course_image: null },
      { key: '2-21', course_id: 2, pricing_plan_id: 21, qty: 1, course_type: 'Online', course_name: 'Python', course_image: null },
    ],
    plans: [plan(11, 1, 200000, { is_default: true }), plan(21, 2, 100000, { is_default: true })],
    promotions: [{ id: 5, title: 'ซื้อคู่ลด 500', description_list: [], promotion_type: 'P2', coursesInPromotion: [1, 2], courses: [1, 2], number_of_course: 2, discount_type: 'amount', discount_amont: 50000, discount_amount_usd: null }],
    paymentMethods: [{ id: 1, name: 'โอน' }],
    currency: 'THB',
    usdEnabled: false,
    loggedIn: false,
    ownedCourseIds: [],
    settings: { is_coupon_promotion_exclusive: true, is_one_coupon_only: false },
    taxSettings,
  };

  it('the best promotion is preselected; a coupon asks to switch from the promotion; choosing the promotion again asks to drop the coupon', async () => {
    const user = userEvent.setup();
    const s = scripted({ getCouponByCouponCode: { ok: { success: true, data: { id: 3, code: 'TEN', coupon_type: 'P1', number_of_course: 1, courses: [1, 2], payment_method: [1], discount_type: 'percent', discount_amont: 10, discount_amount_usd: null } } } });
    const ref = createActor(cartMachine.provide({ actors: s.actors }), { input }).start();
    render(
      <>
        <CouponForm cartRef={ref} />
        <PromotionList cartRef={ref} />
        <SwitchModals cartRef={ref} />
      </>,
    );
    expect((screen.getByTestId('promotion-5') as HTMLInputElement).checked).toBe(true);
    await user.type(screen.getByTestId('coupon-input'), 'TEN{Enter}');
    const toCoupon = await screen.findByRole('dialog', { name: 'เปลี่ยนไปใช้คูปอง?' });
    await user.click(within(toCoupon).getByRole('button', { name: 'ยืนยัน' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('coupon-applied').textContent).toContain('TEN');
    expect((screen.getByTestId('promotion-none') as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByTestId('promotion-5'));
    const toPromotion = await screen.findByRole('dialog', { name: 'เปลี่ยนไปใช้โปรโมชั่น?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    screen.getByTestId('coupon-applied');
    void toPromotion;
    await user.click(screen.getByTestId('promotion-5'));
    await user.click(within(await screen.findByRole('dialog', { name: 'เปลี่ยนไปใช้โปรโมชั่น?' })).getByRole('button', { name: 'ยืนยัน' }));
    await waitFor(() => expect(screen.queryByTestId('coupon-applied')).toBeNull());
    expect((screen.getByTestId('promotion-5') as HTMLInputElement).checked).toBe(true);
  });

  it('withholding shows over the threshold with 3% default and 1%; the tax-invoice option is locked on', async () => {
    const user = userEvent.setup();
    const ref = createActor(cartMachine, { input }).start();
    render(<WithholdingPanel cartRef={ref} />);
    const box = screen.getByTestId('withholding');
    await user.click(within(box).getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }));
    expect((within(box).getByRole('radio', { name: '3%' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(box).getByRole('radio', { name: '1%' }));
    expect(ref.getSnapshot().context.withholdingPercent).toBe(1);
    const invoice = within(box).getByRole('checkbox', { name: 'ต้องการใบกำกับภาษี' }) as HTMLInputElement;
    expect(invoice.checked && invoice.disabled).toBe(true);
  });
});

describe('site header', () => {
  it('logging out: the user and a busy button stay until the server has ended the session, then the login link', async () => {
    let answer!: (value: unknown) => void;
    const s = scriptedCheckout({ logout: () => new Promise((resolve) => (answer = resolve)) });
    const router = createMemoryRouter([{ path: '/', element: <Header bootUser={student} /> }], { initialEntries: ['/'] });
    render(
      <SessionProvider user={student} logic={s.session}>
        <RouterProvider router={router} />
      </SessionProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'ออกจากระบบ' }));
    const busy = screen.getByRole('button', { name: 'กำลังออกจากระบบ…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('header-user')).toBeTruthy();
    expect(screen.queryByTestId('header-login')).toBeNull();
    expect(s.inputsOf('logout')).toHaveLength(1);
    answer({ success: true });
    await waitFor(() => expect(screen.getByTestId('header-login')).toBeTruthy());
    expect(screen.queryByTestId('header-user')).toBeNull();
  });

  it('a logout that fails (no connection): still logged in, told so, and the next try logs out', async () => {
    const s = scriptedCheckout({ logout: [{ error: new TypeError('Failed to fetch') }, { ok: { success: true } }] });
    const router = createMemoryRouter([{ path: '/', element: <Header bootUser={student} /> }], { initialEntries: ['/'] });
    render(
      <SessionProvider user={student} logic={s.session}>
        <RouterProvider router={router} />
        <Notifications />
      </SessionProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'ออกจากระบบ' }));
    expect((await screen.findByRole('alert')).textContent).toContain('ออกจากระบบไม่สำเร็จ คุณยังเข้าสู่ระบบอยู่');
    expect(screen.getByTestId('header-user')).toBeTruthy();
    expect(screen.queryByTestId('header-login')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'ออกจากระบบ' }));
    await waitFor(() => expect(screen.getByTestId('header-login')).toBeTruthy());
    expect(s.inputsOf('logout')).toHaveLength(2);
    toasts.clear();
  });
});

describe('pages after the payment', () => {
  function mount(path: string, element: React.ReactNode, loader?: () => unknown, user = student) {
    const s = scriptedCheckout({ login: { ok: { success: true, user: student } } });
    const router = createMemoryRouter([{ path: path.split('?')[0]!, element, loader, HydrateFallback: () => null }, { path: '*', element: <p>elsewhere</p> }], { initialEntries: [path] });
    render(
      <SessionProvider user={user} logic={s.session}>
        <RouterProvider router={router} />
        <SessionModals />
      </SessionProvider>,
    );
    return { router, s };
  }

  const anOrder = (outcome: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({
    id: 7, price: 199000, discount: 0, shipping_fee: 0, withholding_price: 0, total_amount: 199000, email: 'a@b.co', tel: null, order_token: 'tok-9',
    payment_status: 'approved', currency_code: 'THB', payment_method_id: 8, created_at: '2026-01-02T03:04:05Z', cancel_at: '2026-01-03T03:04:05Z',
    ...(outcome ? { outcome } : {}), ...extra,
  });

  it('thank-you page thanks only for a paid order (#N as in the order list) and forgets the saved flow', async () => {
    localStorage.setItem('checkout-flow', '{"status":"active"}');
    mount('/thankyou?orderId=tok-9', <ThankYouPage />, () => ({ kind: 'order', order: anOrder({ state: 'paid', reason: null, method_id: 8 }) }));
    expect((await screen.findByTestId('thankyou-title')).textContent).toBe('ขอบคุณสำหรับการสั่งซื้อ');
    expect(screen.getByTestId('order-number').textContent).toBe('#7');
    // forgotten by an effect after the page's commit (on a loaded machine, after findBy saw the title)
    await waitFor(() => expect(localStorage.getItem('checkout-flow')).toBeNull());
    expect(screen.getByRole('link', { name: 'ดูคำสั่งซื้อของฉัน' }).getAttribute('href')).toBe('/myaccount/student/order');
  });

  it('thank-you page: a failed payment is not thanked and says why; an unknown token is not found', async () => {
    mount('/thankyou?orderId=tok-9', <ThankYouPage />, () => ({ kind: 'order', order: anOrder({ state: 'failed', reason: 'insufficientFunds', method_id: 8 }, { payment_status: 'notYetReceived' }) }));
    const title = await screen.findByTestId('thankyou-title');
    expect(title.textContent).toBe('คำสั่งซื้อ #7 ยังไม่ได้ชำระเงิน');
    expect(screen.getByTestId('order-outcome-reason').textContent).toBe('ยอดเงินในบัตรไม่เพียงพอ');
    // The failure notice of spec 8, with the reason in the buyer's language.
    expect(screen.getByRole('alert').textContent).toBe('ผิดพลาด ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง (ยอดเงินในบัตรไม่เพียงพอ)');
    expect(document.body.textContent).not.toContain('ขอบคุณ');
  });

  it('thank-you page of a paid order links its receipt as PDF', async () => {
    const order = { id: 7, price: 199000, discount: 0, shipping_fee: 0, withholding_price: 0, total_amount: 199000, email: 'a@b.co', tel: null, order_token: 'tok7', payment_status: 'approved', currency_code: 'THB', payment_method_id: 8, created_at: '2026-01-02T03:04:05Z', cancel_at: null };
    scriptFetch((req) => {
      const path = new URL(req.url).pathname;
      if (path === '/private/orders/token/tok7') return json({ success: true, data: order });
      if (path === '/private/orders/7/documents') return json({ success: true, data: [{ id: 3, kind: 'receipt', number: 'RC-2026-000003', issued_at: '2026-01-02T03:05:00Z', date: '2026-01-02', currency_code: 'THB', amount: 199000, received: 199000, credits: null, replaced_by_credit_note: null, pdf_url: '/private/documents/3/pdf' }] });
      return undefined;
    });
    const data = await thankYouLoader({ request: new Request('http://localhost/thankyou?orderId=tok7') });
    mount('/thankyou?orderId=tok7', <ThankYouPage />, () => data);
    const link = (await screen.findByTestId('order-document')) as HTMLAnchorElement;
    expect(link.textContent).toBe('ใบเสร็จรับเงิน เลขที่ RC-2026-000003 (PDF)');
    expect(link.getAttribute('href')).toBe('/private/documents/3/pdf');
  });

  it("thank-you page waiting for the shop's approval keeps its word without pushes: the realtime connection lost, it reads the order again and shows it approved", async () => {
    // the page's realtime socket (socket.io-client stood in for): its connection attempts fail
    const handlers = new Map<string, ((arg?: unknown) => void)[]>();
    const socket = {
      connected: false,
      active: true,
      on: (name: string, fn: (arg?: unknown) => void) => (handlers.set(name, [...(handlers.get(name) ?? []), fn]), socket),
      off: () => socket,
      emit: () => socket,
      disconnect: () => socket,
    };
    closeRealtime();
    await openRealtime(async () => ({ io: () => socket }) as never);
    let reads = 0;
    const loader = () => {
      reads += 1;
      return { kind: 'order', order: reads === 1 ? anOrder({ state: 'awaitingApproval', reason: null, method_id: 1 }, { payment_status: 'pendingApproved', payment_method_id: 1 }) : anOrder({ state: 'paid', reason: null, method_id: 1 }, { payment_method_id: 1 }) };
    };
    mount('/thankyou?orderId=tok-9', <ThankYouPage />, loader);
    expect((await screen.findByTestId('order-next')).textContent).toBe('ร้านกำลังตรวจสอบการชำระเงิน หน้านี้จะอัปเดตเองเมื่อได้รับการอนุมัติ');
    expect(reads).toBe(1);
    // the shop approves meanwhile; its push cannot come: socket.io-client's attempts fail in a row
    for (let i = 0; i < ATTEMPTS_BEFORE_UNAVAILABLE; i++) for (const fn of handlers.get('connect_error') ?? []) fn(new Error('xhr poll error'));
    await waitFor(() => expect(screen.getByTestId('thankyou-title').textContent).toBe('ขอบคุณสำหรับการสั่งซื้อ'));
    expect(reads).toBe(2);
    expect(document.body.textContent).not.toContain('หน้านี้จะอัปเดตเอง');
    closeRealtime();
  });

  it('thank-you page for a bogus token thanks no one', async () => {
    mount('/thankyou?orderId=bogus', <ThankYouPage />, () => ({ kind: 'notFound' }));
    expect((await screen.findByTestId('thankyou-title')).textContent).toBe('ไม่พบคำสั่งซื้อนี้');
    expect(document.body.textContent).not.toContain('ขอบคุณ');
  });

  it('orders page lists the orders with their status', async () => {
    const orders = [{ id: 7, price: 199000, discount: 0, shipping_fee: 0, withholding_price: 0, total_amount: 199000, email: 'a@b.co', tel: null, order_token: 't', payment_status: 'approved', currency_code: 'THB', payment_method_id: 8, created_at: '2026-01-02T03:04:05Z', cancel_at: '2026-01-03T03:04:05Z' }];
    mount('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, () => ({ orders }));
    const row = await screen.findByTestId('order-row');
    expect(row.getAttribute('data-status')).toBe('approved');
    expect(row.textContent).toContain('ชำระเงินแล้ว');
    expect(row.textContent).toMatch(/1,990\.00/);
    expect(row.textContent).toContain('#7');
    expect(screen.queryByTestId('payment-failed')).toBeNull();
  });

  it('orders page links each document of a paid order as PDF; the loader reads them for paid orders only', async () => {
    const paid = { id: 7, price: 107000, discount: 0, shipping_fee: 0, withholding_price: 3000, total_amount: 104000, email: 'a@b.co', tel: null, order_token: 't', payment_status: 'approved', currency_code: 'THB', payment_method_id: 8, created_at: '2026-01-02T03:04:05Z', cancel_at: null };
    const unpaid = { ...paid, id: 8, payment_status: 'notYetReceived', order_token: 'u' };
    const doc = (id: number, kind: string, number: string) => ({ id, kind, number, issued_at: '2026-01-02T03:05:00Z', date: '2026-01-02', currency_code: 'THB', amount: 107000, received: 104000, credits: null, replaced_by_credit_note: null, pdf_url: `/private/documents/${id}/pdf` });
    const asked: string[] = [];
    scriptFetch((req) => {
      const path = new URL(req.url).pathname;
      asked.push(path);
      if (path === '/private/orders') return json({ success: true, data: [paid, unpaid] });
      if (path === '/private/orders/7/documents') return json({ success: true, data: [doc(1, 'receipt', 'RC-2026-000001'), doc(2, 'tax_invoice', 'TI-2026-000001')] });
      return json({ success: false, error: { code: 'NOT_FOUND', msg: 'not here' } }, 404);
    });
    const data = await ordersLoader({ request: new Request('http://localhost/myaccount/student/order') });
    expect(asked).toContain('/private/orders/7/documents');
    expect(asked).not.toContain('/private/orders/8/documents');
    expect(Object.keys(data.documents ?? {})).toEqual(['7']);
    mount('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, () => data);
    const [first, second] = await screen.findAllByTestId('order-row');
    const links = within(first!).getAllByTestId('order-document') as HTMLAnchorElement[];
    expect(links.map((a) => a.textContent)).toEqual(['ใบเสร็จรับเงิน เลขที่ RC-2026-000001 (PDF)', 'ใบกำกับภาษี เลขที่ TI-2026-000001 (PDF)']);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/private/documents/1/pdf', '/private/documents/2/pdf']);
    expect(within(second!).queryByTestId('order-documents')).toBeNull();
  });

  it('orders page: a failed payment shows the notice and Pay again / Cancel; a paid one has no actions', async () => {
    const failed = anOrder({ state: 'failed', reason: 'cancelled', method_id: 13 }, { id: 8, payment_status: 'notYetReceived' });
    mount('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, () => ({ orders: [failed, anOrder({ state: 'paid', reason: null, method_id: 8 })] }));
    expect((await screen.findByTestId('payment-failed')).textContent).toContain('ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง (การชำระเงินถูกยกเลิก)');
    const [first, second] = screen.getAllByTestId('order-row');
    expect(within(first!).getByTestId('order-pay').textContent).toBe('ชำระเงินอีกครั้ง');
    within(first!).getByTestId('order-cancel');
    expect(within(second!).queryByTestId('order-pay')).toBeNull();
  });

  it('orders page shows what each order bought: name, plan, quantity, price', async () => {
    const courses = [
      { course_id: 12, course_name: 'หนังสือไวยากรณ์', pricingplan_id: 30, pricingplan_name: 'ราคาหนังสือ', discount: 0, original_pricing_price: 90000, qty: 2, coupon_code: null },
      { course_id: 1, course_name: 'อังกฤษ', pricingplan_id: 11, pricingplan_name: '1 ปี', discount: 29850, original_pricing_price: 199000, qty: 1, coupon_code: 'BUNDLE2' },
    ];
    const orders = [{ id: 9, price: 289000, discount: 29850, shipping_fee: 5000, withholding_price: 0, total_amount: 264150, email: 'a@b.co', tel: null, order_token: 't', payment_status: 'notYetReceived', currency_code: 'THB', payment_method_id: 1, created_at: '2026-01-02T03:04:05Z', cancel_at: null, courses }];
    mount('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, () => ({ orders }));
    const items = await screen.findAllByTestId('order-item');
    expect(items.map((i) => i.textContent)).toEqual(['หนังสือไวยากรณ์ราคาหนังสือจำนวน 2฿900.00', 'อังกฤษ1 ปีจำนวน 1฿1,691.50']);
    expect(screen.getByTestId('order-row').textContent).toContain('#9');
  });

  /**
   * The page under the header, its loader answering as the server would (the buyer's data while the
   * session lives, nothing once the logout has been answered); the logout call is held until the
   * page shows it busy. The page must not read during the call, and must read once it is answered.
   */
  async function logoutHeld(path: string, page: React.ReactNode, shown: string, data: (serverSession: boolean) => unknown, loggedOutShown: () => HTMLElement) {
    let answer!: (value: unknown) => void;
    let serverSession = true;
    const reads: string[] = [];
    const s = scriptedCheckout({ logout: () => new Promise((resolve) => (answer = resolve)) });
    const loader = () => {
      reads.push(serverSession ? 'signed in' : 'signed out');
      return data(serverSession);
    };
    const element = (
      <>
        <Header bootUser={student} />
        {page}
      </>
    );
    const router = createMemoryRouter([{ path: path.split('?')[0]!, element, loader, HydrateFallback: () => null }], { initialEntries: [path] });
    render(
      <SessionProvider user={student} logic={s.session}>
        <RouterProvider router={router} />
      </SessionProvider>,
    );
    await screen.findByTestId(shown);
    await userEvent.click(screen.getByRole('button', { name: 'ออกจากระบบ' }));
    await screen.findByRole('button', { name: 'กำลังออกจากระบบ…' });
    // no read while the call is out: it would get the buyer's data again, which would then stay on screen
    expect(reads).toEqual(['signed in']);
    expect(screen.getByTestId(shown)).toBeTruthy();
    serverSession = false;
    answer({ success: true });
    await waitFor(() => expect(loggedOutShown()).toBeTruthy());
    expect(screen.queryByTestId(shown)).toBeNull();
    expect(reads).toEqual(['signed in', 'signed out']);
  }

  it('orders page: a logout keeps the list until the server has ended the session, then reads again and asks to log in', async () => {
    const orders = [anOrder(undefined, { payment_status: 'approved', cancel_at: null })];
    await logoutHeld('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, 'order-row', (live) => ({ orders: live ? orders : null }), () => screen.getByTestId('login-form'));
  });

  it('thank-you page: a logout keeps the order until the server has ended the session, then reads again and asks to log in', async () => {
    const order = anOrder({ state: 'paid', reason: null, method_id: 8 });
    await logoutHeld('/thankyou?orderId=tok-9', <ThankYouPage />, 'order-number', (live) => (live ? { kind: 'order', order } : { kind: 'login' }), () => screen.getByRole('heading', { name: 'กรุณาเข้าสู่ระบบเพื่อดูสถานะคำสั่งซื้อ' }));
  });

  it('orders page asks to log in when there is no session', async () => {
    mount('/myaccount/student/order', <OrdersPage PaymentHost={PaymentHost} />, () => ({ orders: null }), null as never);
    await screen.findByTestId('login-form');
  });

  it('/cart login panel: Enter submits, then (nothing in the cart) back to the page kept as the return link', async () => {
    const user = userEvent.setup();
    localStorage.setItem('return_link', '/course/1-english');
    // The cart page's data as its loader reads it: the student's cart once logged in (here empty).
    const { settings, purchase } = pageData();
    // The route follows the return link (followReturnLink, as cartLoader does) once the data says logged in with an empty cart.
    const cartData = async () =>
      followReturnLink({
        cart: { cart_id: null, user_id: 'v_1', lines: [], coupon_ids: [], payment_method_id: 1, updated_at: null },
        settings,
        purchase: await purchase,
        student: localStorage.getItem('user_id') !== null,
      });
    const { router, s } = mount('/cart', <CartPage PaymentHost={() => null} />, cartData, null as never);
    await screen.findByTestId('cart-empty');
    await user.type(within(screen.getByTestId('cart-login-page')).getByLabelText(/ชื่อผู้ใช้/), 'somchai');
    await user.type(within(screen.getByTestId('cart-login-page')).getByLabelText(/รหัสผ่าน/), 'secret1{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1-english'));
    expect(s.inputsOf('login')).toEqual([{ username: 'somchai', password: 'secret1' }]);
    expect(localStorage.getItem('user_id')).toBe('42');
  });
});

describe('card-payment return page helpers', () => {
  it('reads the order id from the second path segment, else the parent one', () => {
    expect(returnOrderId('/cardpayment/123', null)).toBe(123);
    expect(returnOrderId('/cardpayment/abc', 9)).toBe(9);
    expect(returnOrderId('/cardpayment', 9)).toBe(9);
    expect(returnOrderId('/cardpayment', null)).toBeNull();
  });

  it('reads the encrypted card from the query, all four fields or nothing', () => {
    const q = new URLSearchParams('encryptedCardInfo=ENC&maskedCardInfo=411111XXXXXX1111&expMonthCardInfo=12&expYearCardInfo=2030');
    expect(cardFromQuery(q)).toEqual({ encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' });
    q.delete('expYearCardInfo');
    expect(cardFromQuery(q)).toBeNull();
  });
});

describe('access countdown (countdown machine)', () => {
  const base = { term: null, termUnit: null, term2: null, termUnit2: null, isTermUnit2: false, countDownTime: null, progressTime: 0, orderID: 1, finishDateTime: null, readLecture: 0 };

  it('counts down a Period plan and shows unlimited for courseDays -1', async () => {
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const { unmount } = render(<AccessCountdown record={{ ...base, planType: 'Period', startDateTime: start, courseDays: 10 } as never} />);
    await waitFor(() => expect(screen.getByTestId('access-countdown').textContent).toMatch(/เวลาเรียนคงเหลือ: (8|9) วัน \d\d:\d\d:\d\d/));
    unmount();
    render(<AccessCountdown record={{ ...base, planType: 'Period', startDateTime: start, courseDays: -1 } as never} />);
    expect(screen.getByTestId('access-countdown').textContent).toBe('เวลาเรียนคงเหลือ: ไม่จำกัดเวลา');
  });

  it('starts again from a new record when the page reads its data again (a renewal: 9 days left becomes 39)', async () => {
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const { rerender } = render(<AccessCountdown record={{ ...base, planType: 'Period', startDateTime: start, courseDays: 10 } as never} />);
    await waitFor(() => expect(screen.getByTestId('access-countdown').textContent).toMatch(/: (8|9) วัน /));
    rerender(<AccessCountdown record={{ ...base, planType: 'Period', startDateTime: start, courseDays: 40 } as never} />);
    await waitFor(() => expect(screen.getByTestId('access-countdown').textContent).toMatch(/: (38|39) วัน /));
    // expired on the server (the record says so): the page says it at once
    rerender(<AccessCountdown record={{ ...base, planType: 'Period', startDateTime: new Date(Date.now() - 20 * 86_400_000).toISOString(), courseDays: 10 } as never} />);
    await waitFor(() => expect(screen.getByTestId('access-countdown').textContent).toBe('เวลาเรียนคงเหลือ: หมดเวลาเรียนแล้ว'));
  });
});
