/**
 * The product detail page (route /product/:id, id = {id}-{slug}, only the numeric prefix must
 * match): image gallery, action buttons (type, price, available quantity), description tabs,
 * social tags, and the same checkout as the course page (products need a shipping address and a
 * shipping fee option; the quantity, within stock, is the cart machine's line.setQty).
 */
import { useEffect, useId } from 'react';
import { useLoaderData, useLocation, useRouteLoaderData } from 'react-router';
import { shownCurrency, startingPrice } from '../../../domain/plans';
import { keepReturnLink } from '../../api/storage';
import { t } from '../../i18n/messages';
import { useLoggedIn } from '../../session/context';
import { Price } from '../../ui';
import { HtmlBlock } from '../course/components/CourseDescription';
import type { PaymentSlot } from '../checkout/components/PurchasePanel';
import type { SessionUser } from '../../../machines/shared/api';
import { DeferredPurchase } from '../course/DeferredPurchase';
import type { ProductPageData } from './loader';
import { ShownCurrencyProvider, useShownCurrency } from '../checkout/shown-currency';
export { productLoader } from './loader';
import '../course/course.css';

type ProductDetail = ProductPageData['product'];

function Tabs({ product }: { product: ProductDetail }) {
  const id = `t${useId().replace(/:/g, '')}`;
  // One tab panel today (the description); the tablist keeps the legacy page's shape and keyboard model.
  return (
    <div className="tabs">
      <div role="tablist" aria-label={t('productDetail')}>
        <button type="button" role="tab" id={`${id}-tab`} aria-selected="true" aria-controls={`${id}-panel`}>
          {t('productDetail')}
        </button>
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab`} tabIndex={0}>
        <HtmlBlock html={product.courseDescription} className="course-description" />
      </div>
    </div>
  );
}

/**
 * The pictures side by side in a strip that snaps to one picture at a time (swipe on a phone,
 * scroll or the thumbnails elsewhere); each thumbnail brings its picture into view. No state: the
 * strip's scroll position is the gallery's.
 */
function Gallery({ images, name }: { images: readonly string[]; name: string }) {
  const id = `g${useId().replace(/:/g, '')}`;
  if (images.length === 0) return null;
  return (
    <section className="product-gallery" data-testid="product-gallery">
      {/* a focusable scroll strip (arrow keys scroll it) is a named group: aria-label is not allowed on a plain div */}
      <div className="product-gallery__strip" role="group" tabIndex={0} aria-label={t('productGallery')}>
        {images.map((src, i) => (
          <img key={src} id={`${id}-${i}`} src={src} alt={`${name} ${i + 1}`} width={600} height={314} loading={i === 0 ? 'eager' : 'lazy'} decoding="async" />
        ))}
      </div>
      {images.length > 1 ? (
        <ul className="product-gallery__thumbs">
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                aria-label={t('productShowPicture', { n: i + 1 })}
                aria-controls={`${id}-${i}`}
                onClick={() => document.getElementById(`${id}-${i}`)?.scrollIntoView({ behavior: 'smooth', block: 'nearest', inline: 'start' })}
                data-testid={`gallery-thumb-${i}`}
              >
                <img src={src} alt="" width={96} height={50} loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Type, price (the default plan's, in the shown currency) and the quantity left. */
function Facts({ product }: { product: ProductDetail }) {
  // The page's user while the session starts: waiting for it put a spinner in place of the page.
  const pageUser = (useRouteLoaderData('root') as { user: SessionUser | null } | undefined)?.user ?? null;
  const loggedIn = useLoggedIn(pageUser);
  const currency = useShownCurrency('THB');
  const price = startingPrice(product.priceDetail, { loggedIn }, currency);
  return (
    <dl className="product-facts" data-testid="product-facts">
      <div>
        <dt>{t('productType')}</dt>
        <dd>{t('productTypeName')}</dd>
      </div>
      {price !== null ? (
        <div>
          <dt>{t('productPrice')}</dt>
          <dd>
            <Price amount={price} currency={currency} freeWhenZero testId="product-price" />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t('quantity')}</dt>
        <dd data-testid="product-stock">{product.available_qty > 0 ? t('stockLeft', { count: product.available_qty }) : t('productSoldOut')}</dd>
      </div>
    </dl>
  );
}

export function ProductPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const data = useLoaderData() as ProductPageData;
  const { product, settings } = data;
  const location = useLocation();
  useEffect(() => {
    keepReturnLink(location.pathname);
  }, [location.pathname]);
  const images = product.image_detail.length > 0 ? product.image_detail : product.preview.pictureUrl ? [product.preview.pictureUrl] : [];
  const initialCurrency = shownCurrency(settings.currency, data.course.default_price_usd !== null && data.course.default_price_usd !== undefined);
  return (
    <ShownCurrencyProvider key={`${product.id}-${initialCurrency}`} initial={initialCurrency}>
      <title>{`${product.meta_title ?? product.name} | ${settings.title}`}</title>
      {product.meta_description ? <meta name="description" content={product.meta_description} /> : null}
      {images[0] ? <meta property="og:image" content={images[0]} /> : null}
      <main className="course course--l3 product" data-testid="product-page">
        <div className="course__grid">
          <div className="course__main">
            <h1 className="course-hero__title">{product.name}</h1>
            <Gallery images={images} name={product.name} />
            <Facts product={product} />
            <Tabs product={product} />
          </div>
          <aside className="course__purchase course__purchase--sticky" aria-label={t('purchaseArea')}>
            <DeferredPurchase data={data} layout={3} PaymentHost={PaymentHost} embedded={false} />
          </aside>
        </div>
      </main>
    </ShownCurrencyProvider>
  );
}
