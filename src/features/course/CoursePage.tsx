import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Await, useLoaderData, useLocation, useSearchParams } from 'react-router';
import { shownCurrency } from '../../../domain/money';
import { keepReturnLink } from '../../api/storage';
import { ShownCurrencyProvider } from '../checkout/shown-currency';
import type { CheckoutLogic } from '../checkout/checkout-actor';
import type * as PurchaseEntry from '../checkout/purchase-entry';
import { nextTask } from '../../api/next-task';
import { CourseDescription } from './components/CourseDescription';
import { CourseHero } from './components/CourseHero';
import { Curriculum } from './components/Curriculum';
import { HowToBuySection, QuestionsSection, RelatedCourses } from './components/InfoSections';
import { PlaylistView } from './components/Playlist';
import type { PaymentSlot } from '../checkout/components/PurchasePanel';
import { focusWhenRendered, scrollToSection, StickyBar } from './components/StickyBar';
import { CourseLayout, resolveLayout, type LayoutId } from './layouts';
import type { CoursePageData, PurchaseData } from './loader';
import { msg, t } from '../../i18n/messages';
import { Spinner } from '../../ui';
import './course.css';

let checkoutCode: Promise<typeof PurchaseEntry> | null = null;
/**
 * The checkout's code, evaluated in three tasks instead of one (a chunk's modules are evaluated
 * in one task when it arrives): zod with the form rules, then the payment machines with their
 * actors (src/api/payment-logic, ten machines built when their modules run), then the checkout's
 * own machines and panel. Started when the page's purchase area mounts, beside the purchase
 * data's requests; a failed load is tried again on the next call.
 */
export function loadCheckoutCode(): Promise<typeof PurchaseEntry> {
  checkoutCode ??= (async () => {
    preloadCheckoutCode();
    await import('../../../domain/forms/common');
    await nextTask();
    await import('../../api/payment-logic');
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
export function preloadCheckoutCode(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): void {
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
  for (const href of files) {
    if (typeof href !== 'string' || !href.startsWith('/assets/')) continue;
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    doc.head.append(link);
  }
}

const PurchaseArea = lazy(loadCheckoutCode);

/** The checkout once its data and its chunk are there; a placeholder of the same place before. */
export function DeferredPurchase({ data, layout, PaymentHost, embedded, logic }: { data: CoursePageData; layout: LayoutId; PaymentHost: PaymentSlot; embedded: boolean; logic?: CheckoutLogic }): ReactNode {
  // The checkout's code is fetched while the purchase data is asked for, not after it arrives.
  useEffect(() => {
    loadCheckoutCode().catch(() => undefined);
  }, []);
  const placeholder = (
    <div className="purchase purchase--loading" aria-busy="true">
      <Spinner />
    </div>
  );
  return (
    <Suspense fallback={placeholder}>
      <Await
        resolve={data.purchase}
        errorElement={
          <p className="ui-alert ui-alert--error" role="alert">
            {t('cartFailTitle')}
          </p>
        }
      >
        {(purchase: PurchaseData) => <PurchaseArea data={{ ...data, purchase }} layout={layout} PaymentHost={PaymentHost} embedded={embedded} logic={logic} />}
      </Await>
    </Suspense>
  );
}

/** An Open Graph picture or video with its size. */
function OgMedia({ kind, url, width, height }: { kind: 'image' | 'video'; url: string; width: number; height: number }) {
  return (
    <>
      <meta property={`og:${kind}`} content={url} />
      <meta property={`og:${kind}:width`} content={String(width)} />
      <meta property={`og:${kind}:height`} content={String(height)} />
    </>
  );
}

function Meta({ data }: { data: CoursePageData }) {
  const { course, settings } = data;
  const title = `${course.meta_title ?? course.name} | ${settings.title}`;
  const description = course.meta_description ?? '';
  return (
    <>
      <title>{title}</title>
      {description ? <meta name="description" content={description} /> : null}
      <meta property="og:title" content={course.meta_title ?? course.name} />
      {description ? <meta property="og:description" content={description} /> : null}
      <meta property="og:type" content="website" />
      {course.og_image ? <OgMedia kind="image" url={course.og_image} width={600} height={314} /> : null}
      {course.og_video ? <OgMedia kind="video" url={course.og_video} width={400} height={300} /> : null}
      {settings.theme?.photo_favicon ? <link rel="icon" href={settings.theme.photo_favicon} /> : null}
    </>
  );
}

/**
 * The course detail page that is also the checkout (route /course/:id). Keeps its own path as
 * the return link; ?learn=true shows the video playlist instead.
 */
export function CoursePage({ PaymentHost, logic }: { PaymentHost: PaymentSlot; /** Tests pass the checkout with scripted actors. */ logic?: CheckoutLogic }) {
  const data = useLoaderData() as CoursePageData;
  const location = useLocation();
  const [params] = useSearchParams();
  const { course, settings } = data;
  const layout = resolveLayout(course.layout_course_detail, settings.layout_course_detail);
  const path = location.pathname;
  const learnHref = `${path}?learn=true`;

  useEffect(() => {
    keepReturnLink(path);
  }, [path]);

  if (data.playlist && params.get('learn') === 'true') {
    const lecture = Number(params.get('lecture'));
    return (
      <>
        <Meta data={data} />
        <PlaylistView items={data.playlist} courseName={course.name} backHref={path} current={Number.isInteger(lecture) && lecture > 0 ? lecture : null} />
      </>
    );
  }

  const embedded = layout === 4;
  const initialCurrency = shownCurrency(settings.currency, course.default_price_usd !== null && course.default_price_usd !== undefined);
  const purchase = <DeferredPurchase data={data} layout={layout} PaymentHost={PaymentHost} embedded={embedded} logic={logic} />;
  return (
    <ShownCurrencyProvider key={`${course.id}-${initialCurrency}`} initial={initialCurrency}>
      <Meta data={data} />
      {settings.demo_payments ? (
        <p className="demo-notice" role="note" data-testid="demo-notice">
          {msg('DEMO_PAYMENTS_NOTICE')}
        </p>
      ) : null}
      <CourseLayout
        layout={layout}
        slots={{
          hero: <CourseHero course={course} playlistHref={learnHref} />,
          stickyBar: embedded ? (
            <StickyBar
              startingPrice={{ price: course.default_price, price_usd: course.default_price_usd }}
              onRegister={() => {
                scrollToSection('#how-to-buy');
                focusWhenRendered(['#how-to-buy .registration input:not([type=hidden])', '#how-to-buy input:not([type=hidden])']);
              }}
            />
          ) : undefined,
          description: <CourseDescription html={course.description_html} />,
          curriculum: <Curriculum sections={course.sections} playlistHref={learnHref} />,
          purchase: embedded ? null : purchase,
          howToBuy: embedded ? (
            <HowToBuySection howToBuy={data.howToBuy}>{purchase}</HowToBuySection>
          ) : (
            <HowToBuySection howToBuy={data.howToBuy} />
          ),
          questions: <QuestionsSection />,
          related: <RelatedCourses course={course} settings={settings} />,
        }}
      />
    </ShownCurrencyProvider>
  );
}
