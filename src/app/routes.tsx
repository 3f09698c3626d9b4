import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { courseLoader } from '../features/course/loader';
import { productLoader } from '../features/course/product-loader';
import { AddToCartButton } from '../features/course/purchase/AddToCartButton';
import { CourseListPage, courseListLoader } from '../features/lists/CourseListPage';
import { Spinner } from '../ui';
import { ErrorPage, NotFoundPage } from './NotFoundPage';
import { RootLayout, rootLoader } from './RootLayout';
import './app.css';

/** The payment popups: a chunk of their own, loaded when a payment starts. */
const PaymentHost = lazy(() => import('../features/payments/PaymentHost'));

function Loading() {
  return (
    <main className="page">
      <Spinner />
    </main>
  );
}

/**
 * Every route (react-router data mode). Features are combined only here; each page but the
 * course list is a lazy chunk.
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
      { index: true, loader: courseListLoader, element: <CourseListPage AddToCart={AddToCartButton} />, errorElement: <ErrorPage /> },
      {
        // The loader is in the entry so its calls start with the page's chunk, not after it.
        path: 'course/:id',
        loader: courseLoader,
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/course/CoursePage');
          return { Component: () => <m.CoursePage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'product/:id',
        loader: productLoader,
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/course/product');
          return { Component: () => <m.ProductPage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'products',
        errorElement: <ErrorPage />,
        lazy: async () => {
          const m = await import('../features/lists/ProductListPage');
          return { loader: m.productListLoader, Component: () => <m.ProductListPage AddToCart={AddToCartButton} /> };
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
          const [page, loader] = await Promise.all([import('../features/course/purchase/CartPage'), import('../features/course/purchase/cart-loader')]);
          return { loader: loader.cartLoader, Component: () => <page.CartPage PaymentHost={PaymentHost} /> };
        },
      },
      {
        path: 'forgotpass',
        lazy: async () => ({ Component: (await import('../features/cart/CartLoginPage')).ForgotPasswordPage }),
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
