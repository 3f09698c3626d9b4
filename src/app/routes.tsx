import type { RouteObject } from 'react-router';
import { courseLoader } from '../features/course/loader';
import { Spinner } from '../ui';
import { lazyComponent } from '../ui/lazy-component';
import { nextTask } from '../api/next-task';
import { ErrorPage, NotFoundPage } from './NotFoundPage';
import { RootLayout, rootLoader } from './RootLayout';

/** The "add to cart" button of the list pages, loaded with their page (not in the course route's first load). */
const addToCart = async () => (await import('../features/checkout/components/AddToCartButton')).AddToCartButton;

/**
 * DOMPurify, fetched beside a course or product page's chunk, and waited for with it: the page's
 * HTML blocks (description, how to buy) are in its first render, not added when DOMPurify comes —
 * late, they pushed down what the first screen showed below them (a layout shift, CLS 0.01 in
 * Lighthouse's slower runs of layout 2; tests/e2e/first-load.spec.ts). A DOMPurify that does not
 * load does not keep the page from showing (its blocks wait alone).
 */
const sanitizerLoaded = () => import('dompurify').catch(() => undefined);

/**
 * The first page's router starts in one task (its history, its matching, the loaders); the page's
 * chunk and DOMPurify are asked for in the next one, so a phone's main thread is not held by both.
 */
const afterRouterStart = nextTask;

/** The payment popups: a chunk of their own, loaded when a payment starts (a spinner until it is in, never held back: ui/lazy-component.tsx). */
const PaymentHost = lazyComponent(async () => (await import('../features/payments/PaymentHost')).PaymentHost, <Spinner />);

function Loading() {
  return (
    <main className="page">
      <Spinner />
    </main>
  );
}

/**
 * Every route (react-router data mode). Features are combined only here; each page is a lazy
 * chunk (the course route's first load carries only its own page).
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    loader: rootLoader,
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    HydrateFallback: Loading,
    children: [
      {
        index: true,
        errorElement: <ErrorPage />,
        lazy: async () => {
          const [m, AddToCart] = await Promise.all([import('../features/lists/CourseListPage'), addToCart()]);
          return { loader: m.courseListLoader, Component: () => <m.CourseListPage AddToCart={AddToCart} /> };
        },
      },
      {
        // The loader is in the entry so its calls start with the page's chunk, not after it.
        path: 'course/:id',
        loader: courseLoader,
        errorElement: <ErrorPage />,
        lazy: async () => {
          await afterRouterStart();
          const [m] = await Promise.all([import('../features/course/CoursePage'), sanitizerLoaded()]);
          return { Component: () => <m.CoursePage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'product/:id',
        // A small chunk of its own, fetched beside the page's chunk (the course route does not carry it).
        loader: async (args) => (await import('../features/product/loader')).productLoader(args),
        errorElement: <ErrorPage />,
        lazy: async () => {
          await afterRouterStart();
          const [m] = await Promise.all([import('../features/product/ProductPage'), sanitizerLoaded()]);
          return { Component: () => <m.ProductPage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'products',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const [m, AddToCart] = await Promise.all([import('../features/lists/ProductListPage'), addToCart()]);
          return { loader: m.productListLoader, Component: () => <m.ProductListPage AddToCart={AddToCart} /> };
        },
      },
      {
        path: 'thankyou',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/thankyou/ThankYouPage');
          return { loader: m.thankYouLoader, Component: m.ThankYouPage };
        },
      },
      {
        path: 'myaccount/student/order',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/orders/OrdersPage');
          return { loader: m.ordersLoader, Component: () => <m.OrdersPage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'promotion/:id',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/lists/PromotionPage');
          return { loader: m.promotionLoader, Component: m.PromotionPage };
        },
      },
      {
        path: 'cart',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const [page, loader] = await Promise.all([import('../features/cart/CartPage'), import('../features/cart/loader')]);
          return { loader: loader.cartLoader, Component: () => <page.CartPage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'forgotpass',
        lazy: async () => ({ Component: (await import('../features/account/ForgotPasswordPage')).ForgotPasswordPage }),
      },
      {
        // The card-payment return page: the order id is the second path segment.
        path: 'cardpayment/:orderId?',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/payments/CardReturnPage');
          return { loader: m.cardReturnLoader, Component: m.CardReturnPage };
        },
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
