/**
 * The product detail page (route /product/:id, id = {id}-{slug}, only the numeric prefix must
 * match): image gallery, action buttons (type, price, available quantity), description tabs,
 * social tags, and the same checkout as the course page (products need a shipping address and a
 * shipping fee option).
 */
import { useEffect, useId, useRef } from 'react';
import { useLoaderData, useLocation } from 'react-router';
import { planPrice } from '../../../domain/plans';
import { keepReturnLink } from '../../api/storage';
import { t } from '../../i18n/messages';
import { Price } from '../../ui';
import { HtmlBlock } from './components/CourseDescription';
import type { PaymentSlot } from './components/PurchasePanel';
import { DeferredPurchase } from './CoursePage';
import type { ProductPageData } from './product-loader';
export { productLoader } from './product-loader';
import './course.css';

type ProductDetail = ProductPageData['product'];

function Tabs({ product }: { product: ProductDetail }) {
  const id = `t${useId().replace(/:/g, '')}`;
  const list = useRef<HTMLDivElement>(null);
  // One tab panel today (the description); the tablist keeps the legacy page's shape and keyboard model.
  return (
    <div className="tabs">
      <div role="tablist" aria-label={t('courseDetail')} ref={list}>
        <button type="button" role="tab" id={`${id}-tab`} aria-selected="true" aria-controls={`${id}-panel`}>
          {t('courseDetail')}
        </button>
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab`} tabIndex={0}>
        <HtmlBlock html={product.courseDescription} className="course-description" />
      </div>
    </div>
  );
}

export function ProductPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const data = useLoaderData() as ProductPageData;
  const { product, settings } = data;
  const location = useLocation();
  useEffect(() => {
    keepReturnLink(location.pathname);
  }, [location.pathname]);
  const currency = settings.currency;
  return (
    <>
      <title>{`${product.meta_title ?? product.name} | ${settings.title}`}</title>
      {product.meta_description ? <meta name="description" content={product.meta_description} /> : null}
      {product.image_detail[0] ? <meta property="og:image" content={product.image_detail[0]} /> : null}
      <main className="course course--l3" data-testid="product-page">
        <div className="course__grid">
          <div className="course__main">
            <h1 className="course-hero__title">{product.name}</h1>
            <div className="product-gallery" data-testid="product-gallery">
              {product.image_detail.map((src, i) => (
                <img key={src} src={src} alt={`${product.name} ${i + 1}`} width={400} height={400} loading={i === 0 ? 'eager' : 'lazy'} />
              ))}
            </div>
            <ul className="product-actions" aria-label={t('pricing')}>
              {product.priceDetail.map((plan) => (
                <li key={plan.id}>
                  {plan.name} — <Price amount={planPrice(plan, currency)} currency={currency} freeWhenZero />
                </li>
              ))}
              <li>{t('stockLeft', { count: product.available_qty })}</li>
            </ul>
            <Tabs product={product} />
          </div>
          <aside className="course__purchase course__purchase--sticky" aria-label={t('purchaseArea')}>
            <DeferredPurchase data={data} layout={3} PaymentHost={PaymentHost} embedded={false} />
          </aside>
        </div>
      </main>
    </>
  );
}
