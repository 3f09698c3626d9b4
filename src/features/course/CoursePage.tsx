import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Await, useLoaderData, useLocation, useSearchParams } from 'react-router';
import { shownCurrency } from '../../../domain/money';
import { keepReturnLink } from '../../api/storage';
import { ShownCurrencyProvider } from './shown-currency';
import type { CheckoutLogic } from './checkout-actor';
import { CourseDescription } from './components/CourseDescription';
import { CourseHero } from './components/CourseHero';
import { Curriculum } from './components/Curriculum';
import { HowToBuySection, QuestionsSection, RelatedCourses } from './components/InfoSections';
import { PlaylistView } from './components/Playlist';
import type { PaymentSlot } from './components/PurchasePanel';
import { focusWhenRendered, scrollToSection, StickyBar } from './components/StickyBar';
import { CourseLayout, resolveLayout, type LayoutId } from './layouts';
import type { CoursePageData, PurchaseData } from './loader';
import { msg, t } from '../../i18n/messages';
import { Spinner } from '../../ui';
import './course.css';

const PurchaseArea = lazy(() => import('./purchase-entry'));

/** The checkout once its data and its chunk are there; a placeholder of the same place before. */
export function DeferredPurchase({ data, layout, PaymentHost, embedded, logic }: { data: CoursePageData; layout: LayoutId; PaymentHost: PaymentSlot; embedded: boolean; logic?: CheckoutLogic }): ReactNode {
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
      {course.og_image ? (
        <>
          <meta property="og:image" content={course.og_image} />
          <meta property="og:image:width" content="600" />
          <meta property="og:image:height" content="314" />
        </>
      ) : null}
      {course.og_video ? (
        <>
          <meta property="og:video" content={course.og_video} />
          <meta property="og:video:width" content="400" />
          <meta property="og:video:height" content="300" />
        </>
      ) : null}
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
