/**
 * The course page's purchase area (and the product page's): the checkout once the purchase data
 * and the checkout's code are there, a placeholder of the same place before; and the loading of
 * that code in six tasks. A module of its own, apart from the course page, so that the product
 * page's first load carries this and not the course page's sections.
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Await, useRevalidator } from 'react-router';
import type { CheckoutLogic } from '../checkout/checkout-actor';
import type * as PurchaseEntry from '../checkout/purchase-entry';
import type { PaymentSlot } from '../checkout/components/PurchasePanel';
import { nextTask } from '../../api/next-task';
import type { LayoutId } from './layouts';
import type { CoursePageData, PurchaseData } from './loader';
import { t } from '../../i18n/messages';
import { Alert, Skeleton } from '../../ui';

let checkoutCode: Promise<typeof PurchaseEntry> | null = null;
/**
 * The checkout's code, evaluated in six tasks instead of one (a chunk's modules are evaluated
 * in one task when it arrives): zod with the form rules, then the ten payment machines' modules,
 * then their configuration with the app's actors (src/api/payment-logic; both build a machine only
 * when a payment first uses it, machines/shared/built-on-first-use.ts), then the checkout's own machines as
 * declared (the checkout, the cart), then as the app provides them with its actors
 * (src/api/checkout-logic), then the panel's components. Started when the page's purchase area
 * mounts, beside the purchase data's requests; a failed load is tried again on the next call.
 */
export function loadCheckoutCode(): Promise<typeof PurchaseEntry> {
  checkoutCode ??= (async () => {
    // Every file's link first, each batch in a task of its own and none in the caller's (React's task
    // that mounted the purchase area, which the first batch made 2-3 ms longer): the imports below
    // then find a link for each file and Vite's loader adds none of its own.
    await preloadCheckoutCode();
    await import('../../../domain/forms/common');
    await nextTask();
    await import('../../../machines/payments/methods');
    await nextTask();
    await import('../../api/payment-logic');
    await nextTask();
    await import('../../../machines/checkout/checkout.machine');
    await nextTask();
    await import('../../api/checkout-logic');
    await nextTask();
    return import('../checkout/purchase-entry');
  })().catch((error: unknown) => {
    checkoutCode = null;
    throw error;
  });
  return checkoutCode;
}

/**
 * The checkout's files, all asked for at once as `<link rel="modulepreload">` (fetched and
 * compiled, not run) when `loadCheckoutCode` starts (the purchase area has mounted, after the
 * page's first commit): its three steps then find their files there and still run one task after
 * the other, instead of each step's files being asked for only once the step before has run.
 * Not earlier (when the page's chunk arrives): on layout 4 the checkout then often arrived before
 * React's first commit and was rendered inside it, one task of 85 ms of CPU instead of two.
 * The built page lists the files (vite.config.ts `checkoutPreloads`); without the list (the dev
 * server, tests) nothing is done.
 */
export async function preloadCheckoutCode(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): Promise<void> {
  const block = doc?.getElementById('checkout-code');
  if (!doc || !block || block.dataset.done) return;
  block.dataset.done = '1';
  let files: unknown;
  try {
    files = JSON.parse(block.textContent ?? '[]');
  } catch {
    return;
  }
  if (!Array.isArray(files)) return;
  const hrefs = files.filter((href): href is string => typeof href === 'string' && href.startsWith('/assets/'));
  // A few links per task, each batch after the calling task: each inserted link starts its fetch in
  // the inserting task (≈ 0.3 ms of CPU each; the 23 files of the checkout were 7 ms in one task).
  for (let i = 0; i < hrefs.length; i += PRELOADS_PER_TASK) {
    await nextTask();
    for (const href of hrefs.slice(i, i + PRELOADS_PER_TASK)) {
      const link = doc.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      doc.head.append(link);
    }
  }
}
const PRELOADS_PER_TASK = 4;

const PurchaseArea = lazy(loadCheckoutCode);

/**
 * The purchase data could not be read (the connection, the server, a session that ended while the
 * page read as the student): said, with a way on — the route's loaders read it again (as whoever
 * the session now says the buyer is).
 */
function PurchaseFailed() {
  const revalidator = useRevalidator();
  return (
    <Alert kind="error">
      {t('cartFailTitle')}{' '}
      <button type="button" className="ui-btn ui-btn--link" disabled={revalidator.state === 'loading'} onClick={() => void revalidator.revalidate()}>
        {t('tryAgain')}
      </button>
    </Alert>
  );
}

/** The checkout once its data and its chunk are there; a placeholder of the same place before. */
export function DeferredPurchase({ data, layout, PaymentHost, embedded, logic }: { data: CoursePageData; layout: LayoutId; PaymentHost: PaymentSlot; embedded: boolean; logic?: CheckoutLogic }): ReactNode {
  // The checkout's code is fetched while the purchase data is asked for, not after it arrives.
  useEffect(() => {
    loadCheckoutCode().catch(() => undefined);
  }, []);
  const placeholder = (
    <div className="purchase purchase--loading" aria-busy="true">
      <Skeleton lines={4} />
    </div>
  );
  return (
    <Suspense fallback={placeholder}>
      <Await
        resolve={data.purchase}
        errorElement={<PurchaseFailed />}
      >
        {(purchase: PurchaseData) => <PurchaseArea data={{ ...data, purchase }} layout={layout} PaymentHost={PaymentHost} embedded={embedded} logic={logic} />}
      </Await>
    </Suspense>
  );
}
