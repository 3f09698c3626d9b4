/**
 * The product detail page (route /product/:id, id = {id}-{slug}, only the numeric prefix must
 * match): image gallery, action buttons (type, price, available quantity), description tabs,
 * social tags, and the same checkout as the course page (products need a shipping address and a
 * shipping fee option).
 */
import { useId, useRef } from 'react';
import { redirect, useLoaderData, useLocation } from 'react-router';
import type { components } from '../../../generated/api';
import { planPrice } from '../../../domain/plans';
import { api } from '../../api/client';
import { isApiError, unwrap } from '../../api/errors';
import { keepReturnLink, keptUserId } from '../../api/storage';
import { t } from '../../i18n/messages';
import { Price } from '../../ui';
import { CheckoutProvider } from './checkout-actor';
import { HtmlBlock } from './components/CourseDescription';
import { PurchasePanel, type PaymentSlot } from './components/PurchasePanel';
import { canonicalPath, courseIdFromParam, loadPurchaseData, loadSiteSettings, notFound, type Course, type CoursePageData } from './loader';
import './course.css';
import { useEffect } from 'react';

type ProductDetail = components['schemas']['ProductDetail'];

export interface ProductPageData extends CoursePageData {
  product: ProductDetail;
}

/** A product read as the course facts the checkout and buyability use. */
function asCourse(p: ProductDetail): Course {
  return {
    id: p.id,
    name: p.name,
    link_path: p.link_path,
    course_type: p.course_type,
    description_html: p.courseDescription,
    image: p.image_detail[0] ?? p.preview.pictureUrl,
    preview_video: null,
    instructor: null,
    sections: [],
    seats_available: null,
    start_reg_date: null,
    end_reg_date: null,
    buy_course_free: false,
    is_course_access_right: false,
    access_group_ids: [],
    layout_course_detail: 3,
    is_layout_course_registration: null,
    default_price: p.priceDetail.find((x) => x.is_default)?.price ?? p.priceDetail[0]?.price ?? null,
    default_price_usd: p.priceDetail.find((x) => x.is_default)?.price_usd ?? null,
    meta_title: p.meta_title,
    meta_description: p.meta_description,
    og_image: p.image_detail[0] ?? null,
  };
}

export async function productLoader({ params, request }: { params: { id?: string }; request: Request }): Promise<ProductPageData | Response> {
  const id = courseIdFromParam(params.id);
  if (id === null) throw notFound();
  const url = new URL(request.url);
  try {
    const [p, settings, purchase, fees, addresses] = await Promise.all([
      api.GET('/public/products/{id}/{number}', { params: { path: { id, number: 0 } }, signal: request.signal }),
      loadSiteSettings(request.signal),
      loadPurchaseData(id, request.signal),
      api.GET('/public/shipping/fees', { signal: request.signal }).then((r) => unwrap(r, 'listShippingFees').data).catch(() => []),
      keptUserId() === null
        ? Promise.resolve([])
        : api.GET('/private/shipping/addresses', { signal: request.signal }).then((r) => unwrap(r, 'listShippingAddresses').data).catch(() => []),
    ]);
    const product = unwrap(p, 'getProduct').data;
    if (!product?.id) throw notFound();
    const canonical = canonicalPath('/product', params.id ?? '', product.link_path, url.search);
    if (canonical) return redirect(canonical);
    return { product, course: asCourse(product), settings, howToBuy: null, playlist: null, purchase: { ...purchase, shippingFees: fees, shippingAddresses: addresses } };
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.code === 'NOT_FOUND')) throw notFound();
    throw error;
  }
}

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
    <CheckoutProvider key={product.id} data={data} layout={3}>
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
          <aside className="course__purchase course__purchase--sticky" aria-label="สั่งซื้อ">
            <PurchasePanel data={data} PaymentHost={PaymentHost} embedded={false} />
          </aside>
        </div>
      </main>
    </CheckoutProvider>
  );
}
