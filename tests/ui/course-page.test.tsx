import { describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { RelatedCourses } from '../../src/features/course/components/InfoSections';
import { setInAppNavigator } from '../../src/api/effects';
import { CoursePage } from '../../src/features/course/CoursePage';
import { preloadCheckoutCode } from '../../src/features/course/DeferredPurchase';
import { canonicalPath, courseIdFromParam, type CoursePageData } from '../../src/features/course/loader';
import { resolveLayout } from '../../src/features/course/layouts';
import { sanitizeHtml } from '../../src/features/course/components/CourseDescription';
import { PaymentHost } from '../../src/features/payments/PaymentHost';
import { SessionProvider } from '../../src/session';
import { Notifications, toasts } from '../../src/ui';
import type { SessionUser } from '../../machines/shared/api';
import { createOrderAnswer, scriptedCheckout } from '../support/ui-checkout';
import type { Answer } from '../support/ui-actors';
import { apiError } from '../support/ui-actors';
import { pageData, plan, student } from './fixtures';
import { t, tm } from '../../src/i18n/messages';
import { MSG } from '../../domain/messages';

function renderPage(data: CoursePageData, { user = null, answers = {}, loader = () => data }: { user?: SessionUser | null; answers?: Record<string, Answer | Answer[]>; loader?: () => CoursePageData } = {}) {
  toasts.clear();
  delete (window as { dataLayer?: unknown }).dataLayer;
  const s = scriptedCheckout({ getBankCodeOptions: { ok: [] }, ...answers });
  const navigations: string[] = [];
  setInAppNavigator((to) => navigations.push(to));
  const router = createMemoryRouter(
    [{ path: '/course/:id', loader, element: <CoursePage PaymentHost={(p) => <PaymentHost {...p} bankCodes={[{ banktransfer_value: 'SCB', banktransfer_nameth: 'ธนาคารไทยพาณิชย์' }]} />} logic={s.logic} />, HydrateFallback: () => null }],
    { initialEntries: [`/course/${data.course.link_path}`] },
  );
  render(
    <SessionProvider user={user} logic={s.session}>
      <RouterProvider router={router} />
      <Notifications />
    </SessionProvider>,
  );
  return { ...s, navigations };
}

describe('course page helpers', () => {
  it('reads the id before the first hyphen and redirects to the canonical path only when the id matches', () => {
    expect(courseIdFromParam('12-english-for-communication')).toBe(12);
    expect(courseIdFromParam('12')).toBe(12);
    expect(courseIdFromParam('english')).toBeNull();
    expect(courseIdFromParam('0-x')).toBeNull();
    expect(canonicalPath('/course', '12', '12-english', '?learn=true')).toBe('/course/12-english?learn=true');
    expect(canonicalPath('/course', '12-old-slug', '12-english', '')).toBe('/course/12-english');
    expect(canonicalPath('/course', '12-english', '12-english', '')).toBeNull();
    expect(canonicalPath('/product', '13-x', '12-english', '')).toBeNull();
  });

  it('chooses the per-course layout, else the site setting, else 3', () => {
    expect(resolveLayout(null, 4)).toBe(4);
    expect(resolveLayout(2, 4)).toBe(2);
    expect(resolveLayout(null, null)).toBe(3);
    expect(resolveLayout(7, undefined)).toBe(3);
  });

  it('sanitises course HTML with DOMPurify', async () => {
    const clean = await sanitizeHtml('<p onclick="x()">hi<script>alert(1)</script><img src="x" onerror="steal()"></p><iframe src="//evil"></iframe>');
    expect(clean).toBe('<p>hi<img src="x"></p>');
  });
});

describe("the checkout's files, preloaded when the course page's code arrives", () => {
  it('each file the built page lists becomes one modulepreload link, once, a few per task and none in the calling task; no list, nothing', async () => {
    const doc = document.implementation.createHTMLDocument('page');
    await preloadCheckoutCode(doc);
    expect(doc.head.querySelectorAll('link').length).toBe(0);
    const block = doc.createElement('script');
    block.type = 'application/json';
    block.id = 'checkout-code';
    const files = ['/assets/common-1.js', '/assets/PurchasePanel-2.js', 'https://elsewhere.example/x.js', '/assets/a-3.js', '/assets/b-4.js', '/assets/c-5.js'];
    block.textContent = JSON.stringify(files);
    doc.head.append(block);
    const first = preloadCheckoutCode(doc);
    const hrefs = () => [...doc.head.querySelectorAll('link')].map((l) => [l.rel, l.getAttribute('href')]);
    // None in the calling task (React's, which mounted the purchase area); the first four in the next task, the rest in the one after.
    expect(hrefs()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hrefs().map(([, h]) => h)).toEqual(['/assets/common-1.js', '/assets/PurchasePanel-2.js', '/assets/a-3.js', '/assets/b-4.js']);
    await Promise.all([first, preloadCheckoutCode(doc)]);
    expect(hrefs()).toEqual(files.filter((f) => f.startsWith('/assets/')).map((f) => ['modulepreload', f]));
  });
});

describe('course page (layout 3)', () => {
  it('the demo shop shows the demo-payments notice from the server; a real shop does not', async () => {
    const demo = pageData();
    renderPage({ ...demo, settings: { ...demo.settings, demo_payments: true } });
    expect((await screen.findByTestId('demo-notice')).textContent).toBe('ร้านค้าทดลอง: การชำระเงินทั้งหมดเป็นการจำลอง ไม่มีการตัดเงินจริง');
    cleanup();
    renderPage(pageData());
    await screen.findByRole('heading', { level: 1, name: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร' });
    expect(screen.queryByTestId('demo-notice')).toBeNull();
  });

  it('renders the course, the sanitised description, the curriculum and the purchase panel from the checkout actor', async () => {
    renderPage(pageData({ description: '<p>เรียน<script>bad()</script></p>' }));
    await screen.findByRole('heading', { level: 1, name: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร' });
    expect(document.querySelector('main')?.getAttribute('data-layout')).toBe('3');
    // DOMPurify is loaded when the first HTML block renders: the description follows.
    expect((await screen.findByTestId('course-description')).innerHTML).toBe('<p>เรียน</p>');
    expect(within(screen.getByTestId('curriculum')).getAllByText('แนะนำคอร์ส')[0]!.textContent).toBe('แนะนำคอร์ส');
    const panel = await screen.findByTestId('purchase-panel');
    // default plan preselected; the member-only plan shown but disabled for a visitor
    expect((within(panel).getByTestId('plan-11') as HTMLInputElement).checked).toBe(true);
    expect((within(panel).getByTestId('plan-12') as HTMLInputElement).disabled).toBe(true);
    // first payment method preselected, with its own sub-form (the bank accounts)
    expect((within(panel).getByTestId('method-1') as HTMLInputElement).checked).toBe(true);
    expect(within(panel).getByTestId('bank-list').textContent).toContain('123-4-56789-0');
    expect(within(panel).getByTestId('cart-payable').textContent).toMatch(/1,990\.00/);
    expect(screen.queryByTestId('sticky-bar')).toBeNull();
    expect(localStorage.getItem('return_link')).toBe('/course/1-english-for-communication');
  });

  it('purchase data that could not be read: said, with "try again" that reads it again and shows the panel', async () => {
    const ok = pageData();
    let reads = 0;
    renderPage(ok, {
      loader: () => {
        reads++;
        if (reads > 1) return ok;
        const failed = Promise.reject(new Error('network'));
        failed.catch(() => undefined);
        return { ...ok, purchase: failed };
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(t('cartFailTitle'));
    await userEvent.click(within(alert).getByRole('button', { name: t('tryAgain') }));
    await screen.findByTestId('purchase-panel', {}, { timeout: 15_000 });
    expect(reads).toBe(2);
  });

  it("a related course's card has its own add to cart, a chunk of its own: the same button disabled until its code is there", async () => {
    const base = pageData();
    const related = { id: 7, name: 'คอร์สญี่ปุ่น N5', link_path: '7-japanese-n5', course_type: 'Online', image: null, default_price: 150000 };
    const data = { ...base, course: { ...base.course, related: { same_teacher: [related] } }, settings: { ...base.settings, course_teacher: true } } as CoursePageData;
    render(
      <MemoryRouter>
        <RelatedCourses course={data.course} settings={data.settings} />
      </MemoryRouter>,
    );
    const card = screen.getByRole('link', { name: 'คอร์สญี่ปุ่น N5' }).closest('li')!;
    // first render: the add-to-cart machine's chunk is not there yet, the card's button is, disabled
    const waiting = within(card).getByRole('button', { name: `${t('addToCart')}: คอร์สญี่ปุ่น N5` }) as HTMLButtonElement;
    expect(waiting.disabled).toBe(true);
    expect(waiting.getAttribute('aria-busy')).toBe('true');
    // then the machine's button, in the same place, enabled, with its status line
    const button = (await within(card).findByTestId('add-to-cart-7')) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-label')).toBe(`${t('addToCart')}: คอร์สญี่ปุ่น N5`);
    expect(within(card).getByTestId('add-to-cart-status-7').getAttribute('role')).toBe('status');
    expect(within(card).getAllByRole('button')).toHaveLength(1);
  });

  it('a payment method selected shows its sub-form; the totals follow the chosen plan', async () => {
    const user = userEvent.setup();
    renderPage(pageData(), { user: student, answers: {} });
    const panel = await screen.findByTestId('purchase-panel');
    await user.click(within(panel).getByTestId('method-8'));
    expect(within(panel).queryByTestId('bank-list')).toBeNull();
    within(panel).getByText(/ข้อมูลบัตรส่งตรงถึงผู้ให้บริการ/);
    await user.click(within(panel).getByTestId('plan-12'));
    expect(within(panel).getByTestId('cart-payable').textContent).toMatch(/2,990\.00/);
  });

  it('coupon: Enter applies it, the discount shows, a refused code shows the spec message', async () => {
    const user = userEvent.setup();
    const s = renderPage(pageData(), {
      answers: {
        getCouponByCouponCode: [
          { error: apiError(404, 'NOT_FOUND', 'no coupon') },
          { ok: { success: true, data: { id: 3, code: 'WELCOME10', coupon_type: 'P1', number_of_course: 1, courses: [1], payment_method: [1, 8, 9], discount_type: 'percent', discount_amont: 10, discount_amount_usd: null } } },
        ],
      },
    });
    const panel = await screen.findByTestId('purchase-panel');
    const input = within(panel).getByTestId('coupon-input');
    expect((within(panel).getByTestId('coupon-apply') as HTMLButtonElement).disabled).toBe(true);
    await user.type(input, 'NOPE{Enter}');
    expect((await within(panel).findByTestId('coupon-error')).textContent).toBe('ไม่พบคูปองนี้');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.clear(input);
    await user.type(input, 'WELCOME10{Enter}');
    expect((await within(panel).findByTestId('coupon-applied')).textContent).toContain('WELCOME10');
    expect(within(panel).getByTestId('cart-discount').textContent).toMatch(/199\.00/);
    expect(within(panel).getByTestId('cart-payable').textContent).toMatch(/1,791\.00/);
    expect(s.inputsOf('getCouponByCouponCode')[1]).toMatchObject({ coupon_code: 'WELCOME10', course_ids: [1], payment_method_id: 1 });
    await user.click(within(panel).getByRole('button', { name: 'นำคูปอง WELCOME10 ออก' }));
    expect(within(panel).getByTestId('cart-payable').textContent).toMatch(/1,990\.00/);
  });

  it('submit while logged out opens the login/registration modal; Escape dismisses it (auth.dismiss)', async () => {
    const user = userEvent.setup();
    renderPage(pageData());
    const panel = await screen.findByTestId('purchase-panel');
    await user.click(within(panel).getByTestId('checkout-submit'));
    const modal = await screen.findByRole('dialog', { name: 'เข้าสู่ระบบ / สมัครสมาชิก' });
    expect(document.activeElement).toBe(within(modal).getByTestId('login-username'));
    // custom labels rendered from the server inside the registration part
    within(modal).getByLabelText(/โรงเรียน \(School\)/);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(within(panel).getByTestId('checkout-submit'));
  });

  it('logging in from the modal continues to the order and the payment popup (bank transfer)', async () => {
    const user = userEvent.setup();
    const s = renderPage(pageData(), {
      answers: {
        login: { ok: { success: true, user: student } },
        getStudentProfile: { ok: { success: true, data: { firstname: 'สมชาย', lastname: 'ใจดี', email: 'somchai@example.com', tel: null, address: null, is_require_tax_invoice: false, tax_person_type: 'normal_person' } } },
        createOrder: { ok: createOrderAnswer(199000) },
      },
    });
    const panel = await screen.findByTestId('purchase-panel');
    await user.click(within(panel).getByTestId('checkout-submit'));
    const modal = await screen.findByRole('dialog', { name: /เข้าสู่ระบบ/ });
    await user.type(within(modal).getByTestId('login-username'), 'somchai');
    await user.type(within(modal).getByTestId('login-password'), 'secret1{Enter}');
    const transfer = await screen.findByRole('dialog', { name: 'แจ้งชำระเงิน' });
    expect(within(transfer).getByTestId('transfer-due').textContent).toMatch(/1,990\.00/);
    within(transfer).getByRole('button', { name: 'ไว้แจ้งทีหลัง' });
    const order = s.inputsOf('createOrder')[0] as { idempotencyKey: string; body: Record<string, unknown> };
    expect(order.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.body).toMatchObject({ user_id: 42, course_id: [1], pricingplan_id: [11], payment_method_id: 1 });
    // later: the cart is cleared and the thank-you page follows
    await user.click(within(transfer).getByRole('button', { name: 'ไว้แจ้งทีหลัง' }));
    await waitFor(() => expect(s.navigations).toEqual(['/thankyou?orderId=tok-501']), { timeout: 3000 });
    // spec 7: the e-commerce data layer
    const layer = (window as unknown as { dataLayer: { event: string; ecommerce: { items: unknown[] } }[] }).dataLayer;
    expect(layer.map((e) => e.event)).toEqual(['begin_checkout', 'purchase']);
    expect(layer[0]!.ecommerce.items).toEqual([{ item_id: '1', item_name: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร', coupon: undefined, discount: 0, price: 1990, quantity: 1 }]);
  });

  it('a course with an unpaid order is not ordered again: the reason shows and pay only warns', async () => {
    const user = userEvent.setup();
    const s = renderPage(pageData({ owned: [], statuses: { 1: 'notYetReceived' } }), { user: student });
    const panel = await screen.findByTestId('purchase-panel');
    expect(within(panel).getByTestId('buy-blocked').textContent).toBe('คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน');
    expect(within(panel).getByTestId('checkout-submit').getAttribute('aria-disabled')).toBe('true');
    await user.click(within(panel).getByTestId('checkout-submit'));
    expect((await screen.findByTestId('toast')).textContent).toContain('คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน');
    expect(s.calls).toEqual([]);
  });

  it('an empty cart (no plan for this visitor) keeps pay marked disabled and warns on click', async () => {
    const user = userEvent.setup();
    renderPage(pageData({ plans: [plan(12, 1, 299000, { free_for: 'student', free_course_ids: '9' })] }));
    const panel = await screen.findByTestId('purchase-panel');
    within(panel).getByTestId('cart-empty');
    const submit = within(panel).getByTestId('checkout-submit');
    expect(submit.getAttribute('aria-disabled')).toBe('true');
    expect(within(panel).getByTestId('submit-block').textContent).toBe('ยังไม่มีสินค้าในรถเข็น');
    await user.click(submit);
    expect((await screen.findByTestId('toast')).textContent).toContain('ยังไม่มีสินค้าในรถเข็น');
  });
});

describe('course page (layout 4)', () => {
  it('sticky bar: section links, starting price (Free at 0, hidden for null) and register', async () => {
    renderPage(pageData({ layout: 4, registration: true, defaultPrice: 0 }));
    const bar = await screen.findByTestId('sticky-bar');
    await screen.findByTestId('purchase-panel');
    expect(within(bar).getAllByRole('link').map((a) => a.textContent)).toEqual(['รายละเอียดคอร์ส', 'เนื้อหาคอร์ส', 'วิธีการสั่งซื้อ', 'คำถามและความคิดเห็น']);
    expect(within(bar).getByTestId('sticky-price').textContent).toContain(t('free'));
    await userEvent.setup().click(within(bar).getByTestId('sticky-register'));
    expect((document.activeElement as HTMLInputElement).name).toBe('firstname');
  });

  it('hides the price when the default price is null', async () => {
    renderPage(pageData({ layout: 4, defaultPrice: null }));
    await screen.findByTestId('sticky-bar');
    expect(screen.queryByTestId('sticky-price')).toBeNull();
  });

  it('a visitor registers on the page (non-member), then the order and the payment follow', async () => {
    const user = userEvent.setup();
    const s = renderPage(pageData({ layout: 4, registration: true }), {
      answers: {
        registerStudent: { ok: { success: true, createStudent: true, userId: 77 } },
        loginNonMember: { ok: { success: true, user: { ...student, id: 77, is_non_member: true, username: null } } },
        getStudentProfile: { ok: { success: true, data: { firstname: 'ก', lastname: 'ข', email: 'a@b.co', tel: null, address: null, is_require_tax_invoice: false, tax_person_type: 'normal_person' } } },
        createOrder: { ok: createOrderAnswer(199000) },
      },
    });
    const panel = await screen.findByTestId('purchase-panel');
    // invalid first: the summary names every group in error, inline errors, focus on the first field in error, nothing registered
    await user.click(within(panel).getByTestId('checkout-submit'));
    const summary = await within(panel).findByTestId('error-summary');
    expect(summary.textContent).toContain('ข้อมูลติดต่อไม่ถูกต้อง');
    expect(within(summary).getAllByTestId('error-summary-group').length).toBeGreaterThanOrEqual(1);
    expect(within(panel).getAllByText('กรุณากรอกอีเมล').length).toBeGreaterThanOrEqual(1);
    const field = (name: string) => panel.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    expect(document.activeElement).toBe(field('firstname'));
    expect(s.inputsOf('registerStudent')).toEqual([]);

    // the label names the field (no duplicate ids)
    expect(within(panel).getByLabelText(/^อีเมล/)).toBe(field('email'));
    await user.type(field('firstname'), 'สมหญิง');
    await user.type(field('lastname'), 'ทดสอบ');
    await user.type(field('email'), 'somying@example.com');
    await user.type(field('tel'), '0812345678');
    await user.type(within(panel).getByLabelText(/โรงเรียน \(School\)/), 'สาธิต');
    await user.click(within(panel).getByTestId('checkout-submit'));

    const transfer = await screen.findByRole('dialog', { name: 'แจ้งชำระเงิน' });
    // no 'later' for a layout-4 buyer without registration
    expect(within(transfer).queryByRole('button', { name: 'ไว้แจ้งทีหลัง' })).toBeNull();
    const reg = s.inputsOf('registerStudent')[0] as Record<string, unknown>;
    expect(reg).toMatchObject({ firstname: 'สมหญิง', email: 'somying@example.com', is_registration_layout_four: true });
    expect(JSON.parse(reg.customLabel as string)).toEqual([{ id: 1, value: 'สาธิต' }]);
    const credential = (s.inputsOf('loginNonMember')[0] as { credential: string }).credential;
    expect(reg.password).toBe(credential);
    // a random secret (crypto), never a timestamp
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    await act(async () => {});
  });

  it('a buyer signed in without a password sets one in its own form: the checkout saves it, and the checkout is not submitted', async () => {
    const user = userEvent.setup();
    const s = renderPage(pageData({ layout: 4 }), {
      user: { ...student, id: 78, is_non_member: true, username: null },
      answers: { setStudentPassword: [{ error: apiError(409, 'DUPLICATE_USERNAME', 'taken') }, { ok: { success: true } }] },
    });
    const box = await screen.findByTestId('set-password');
    // its own form, not inside the checkout's (a nested form would submit the checkout as well)
    expect(box.closest('form')).toBeNull();
    await user.click(within(box).getByText(t('l4SetPasswordTitle')));
    const username = within(box).getByLabelText(new RegExp(`^${t('username')}`));
    await user.type(username, 'somchai');
    await user.type(within(box).getByLabelText(new RegExp(`^${t('password')}`)), 'secret1234');
    await user.click(within(box).getByRole('button', { name: t('l4SetPasswordSave') }));
    // refused: the code's catalogue message on the username field (by key, not the server's text)
    expect(await within(box).findByText(tm(MSG.DUPLICATE_USERNAME))).toBeDefined();
    await user.clear(username);
    await user.type(username, ' somying ');
    await user.click(within(box).getByRole('button', { name: t('l4SetPasswordSave') }));
    expect((await screen.findByTestId('password-set')).textContent).toContain('somying');
    expect(s.inputsOf('setStudentPassword')).toEqual([{ username: 'somchai', password: 'secret1234' }, { username: 'somying', password: 'secret1234' }]);
    expect(s.inputsOf('createOrder')).toEqual([]);
  });
});
