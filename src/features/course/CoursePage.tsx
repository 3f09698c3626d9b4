import { useEffect } from 'react';
import { useLoaderData, useLocation, useSearchParams } from 'react-router';
import { shownCurrency } from '../../../domain/money';
import { keepReturnLink } from '../../api/storage';
import { ShownCurrencyProvider } from '../checkout/shown-currency';
import type { CheckoutLogic } from '../checkout/checkout-actor';
import { CourseDescription } from './components/CourseDescription';
import { CourseHero } from './components/CourseHero';
import { Curriculum } from './components/Curriculum';
import { HowToBuySection, QuestionsSection, RelatedCourses } from './components/InfoSections';
import { PlaylistView } from './components/Playlist';
import type { PaymentSlot } from '../checkout/components/PurchasePanel';
import { focusWhenRendered, scrollToSection, StickyBar } from './components/StickyBar';
import { CourseLayout, resolveLayout } from './layouts';
import type { CoursePageData } from './loader';
import { DeferredPurchase } from './DeferredPurchase';
import { msg } from '../../i18n/messages';
import './course.css';

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
