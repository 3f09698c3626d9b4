import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { CoursePage } from '../../src/features/course/CoursePage';
import type { CoursePageData } from '../../src/features/course/loader';
import { ProductPage } from '../../src/features/product/ProductPage';
import type { ProductPageData } from '../../src/features/product/loader';
import { PaymentHost } from '../../src/features/payments/PaymentHost';
import { SessionProvider } from '../../src/session';
import { Notifications, toasts } from '../../src/ui';
import { planTypeName, t } from '../../src/i18n/messages';
import { scriptedCheckout } from '../support/ui-checkout';
import { pageData, plan } from './fixtures';
import { json, scriptFetch } from '../support/ui-fetch';

// The product page's cart asks the server for a quote; here the server does not answer one, so the
// cart shows the domain's numbers (what these tests check).
beforeEach(() => scriptFetch((req) => (new URL(req.url).pathname === '/public/cart/quote' ? json({ success: false, error: { code: 'NOT_FOUND', msg: 'no quote here' } }, 404) : undefined)));

const host = (p: Parameters<typeof PaymentHost>[0]) => <PaymentHost {...p} bankCodes={[]} />;

function renderAt(path: string, route: string, data: CoursePageData, element: (logic: ReturnType<typeof scriptedCheckout>['logic']) => React.ReactNode) {
  cleanup();
  toasts.clear();
  const s = scriptedCheckout({ getBankCodeOptions: { ok: [] } });
  const router = createMemoryRouter([{ path: route, loader: () => data, element: element(s.logic), HydrateFallback: () => null }], { initialEntries: [path] });
  render(
    <SessionProvider user={null} logic={s.session}>
      <RouterProvider router={router} />
      <Notifications />
    </SessionProvider>,
  );
  return s;
}

/** The seeded grammar book: three gallery pictures, 3 left in stock, ฿450 / US$13. */
function bookData(): ProductPageData {
  const base = pageData({ plans: [plan(31, 12, 45000, { name: 'ราคาหนังสือ (book)', plan_type: 'One-Time Payment', price_usd: 1300, is_default: true })] });
  const product = {
    id: 12,
    name: 'หนังสือไวยากรณ์อังกฤษฉบับสมบูรณ์',
    link_path: '12-english-grammar-book',
    meta_title: null,
    meta_description: null,
    image_detail: ['/uploads/g1.svg', '/uploads/g2.svg', '/uploads/g3.svg'],
    preview: { videoUrl: null, pictureUrl: '/uploads/g1.svg' },
    priceDetail: [plan(31, 12, 45000, { name: 'ราคาหนังสือ (book)', plan_type: 'One-Time Payment', price_usd: 1300, is_default: true })],
    courseDescription: '<p>ปกอ่อน 320 หน้า</p>',
    course_type: 'Product',
    available_qty: 3,
  };
  return {
    ...base,
    product,
    stock: 3,
    course: { ...base.course, id: 12, name: product.name, link_path: product.link_path, course_type: 'Product', default_price: 45000, default_price_usd: 1300, image: '/uploads/g1.svg' },
    purchase: base.purchase.then((p) => ({ ...p, shippingFees: [{ id: 1, name: 'EMS', fee: 5000 }], shippingAddresses: [] })),
  } as unknown as ProductPageData;
}

describe('product page', () => {
  it('says product, not course: type, price, quantity left, a gallery and the product details tab', async () => {
    renderAt('/product/12-english-grammar-book', '/product/:id', bookData(), () => <ProductPage PaymentHost={host} />);
    await screen.findByRole('heading', { level: 1, name: 'หนังสือไวยากรณ์อังกฤษฉบับสมบูรณ์' });
    const facts = screen.getByTestId('product-facts');
    within(facts).getByText(t('productTypeName'));
    expect(screen.getByTestId('product-price').textContent).toBe('฿450.00');
    expect(screen.getByTestId('product-stock').textContent).toBe(t('stockLeft', { count: 3 }));
    expect(screen.getByRole('tab').textContent).toBe(t('productDetail'));
    const gallery = screen.getByTestId('product-gallery');
    expect(within(gallery).getAllByRole('img', { name: /หนังสือไวยากรณ์/ }).map((i) => i.getAttribute('src'))).toEqual(['/uploads/g1.svg', '/uploads/g2.svg', '/uploads/g3.svg']);
    expect(within(gallery).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([1, 2, 3].map((n) => t('productShowPicture', { n })));
    await screen.findByTestId('purchase-panel', {}, { timeout: 5000 });
    // No course wording anywhere on a book's page.
    expect(document.body.textContent).not.toContain(t('courseDetail'));
    expect(document.body.textContent).not.toContain('One-Time Payment');
    expect(document.body.textContent).not.toContain(planTypeName('One-Time Payment'));
  });

  it('the quantity picker offers 1 to the stock left; the cart machine prices the chosen quantity', async () => {
    const user = userEvent.setup();
    renderAt('/product/12-english-grammar-book', '/product/:id', bookData(), () => <ProductPage PaymentHost={host} />);
    const qty = (await screen.findByTestId('qty-12', {}, { timeout: 5000 })) as HTMLSelectElement;
    expect([...qty.options].map((o) => o.value)).toEqual(['1', '2', '3']);
    expect(screen.getByTestId('cart-payable').textContent).toBe('฿450.00');
    await user.selectOptions(qty, '2');
    expect(screen.getByTestId('cart-payable').textContent).toBe('฿900.00');
    // USD chosen: the page's price and the cart follow.
    await user.click(screen.getByTestId('currency-USD'));
    expect(screen.getByTestId('product-price').textContent).toBe('US$13.00');
    expect(screen.getByTestId('cart-payable').textContent).toBe('US$26.00');
  });
});

describe('course page prices in the chosen currency', () => {
  const usdCourse = (layout: 3 | 4) => {
    const data = pageData({ layout, plans: [plan(11, 1, 199000, { is_default: true, price_usd: 5900 }), plan(13, 1, 99000, { name: 'บาทเท่านั้น' })] });
    return { ...data, course: { ...data.course, default_price_usd: 5900 } } as CoursePageData;
  };

  it('with USD chosen the hero and the sticky bar show US$; a plan without a USD price is not offered', async () => {
    const user = userEvent.setup();
    renderAt('/course/1-english-for-communication', '/course/:id', usdCourse(4), (logic) => <CoursePage PaymentHost={host} logic={logic} />);
    await screen.findByTestId('purchase-panel');
    expect(screen.getByTestId('hero-price').textContent).toContain('฿1,990.00');
    expect(screen.getByTestId('sticky-price').textContent).toContain('฿1,990.00');
    screen.getByTestId('plan-13');
    await user.click(screen.getByTestId('currency-USD'));
    expect(screen.getByTestId('hero-price').textContent).toContain('US$59.00');
    expect(screen.getByTestId('sticky-price').textContent).toContain('US$59.00');
    expect(screen.queryByTestId('plan-13')).toBeNull();
    expect(document.body.textContent).not.toContain('US$0.00');
    await user.click(screen.getByTestId('currency-THB'));
    expect(screen.getByTestId('hero-price').textContent).toContain('฿1,990.00');
  });

  it('a course without a USD price offers no USD switch and shows baht', async () => {
    const data = pageData({ layout: 4 });
    renderAt('/course/1-english-for-communication', '/course/:id', { ...data, settings: { ...data.settings, currency: 'USD' } } as CoursePageData, (logic) => <CoursePage PaymentHost={host} logic={logic} />);
    await screen.findByTestId('purchase-panel');
    expect(screen.queryByTestId('currency-USD')).toBeNull();
    expect(screen.getByTestId('hero-price').textContent).toContain('฿1,990.00');
    expect(screen.getByTestId('cart-payable').textContent).toBe('฿1,990.00');
  });
});
