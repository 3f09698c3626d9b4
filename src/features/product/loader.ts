/** The product page's data (react-router loader), kept apart from the page so the route can run it before the page's chunk arrives. */
import { redirect } from 'react-router';
import type { components } from '../../../generated/api';
import { startingPrice } from '../../../domain/plans';
import { takeBootData } from '../../api/boot-data';
import { catalogueRequests } from '../../api/requests/catalogue';
import { readsAsStudent } from '../../api/signed-in';
import { isApiError } from '../../api/errors';
import { canonicalPath, courseIdFromParam, loadSiteSettings, notFound, type Course, type CoursePageData, type SiteSettings } from '../course/loader';
import { loadPurchaseData } from '../checkout/purchase-data';

type ProductDetail = components['schemas']['ProductDetail'];

export interface ProductPageData extends CoursePageData {
  product: ProductDetail;
}

/** A product read as the course facts the checkout and buyability use (its starting price as a student's or a visitor's). */
export function asCourse(p: ProductDetail, loggedIn: boolean): Course {
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
    // The default plan's price in each currency (domain startingPrice: none in USD when no plan has a USD price).
    default_price: startingPrice(p.priceDetail, { loggedIn }, 'THB'),
    default_price_usd: startingPrice(p.priceDetail, { loggedIn }, 'USD'),
    meta_title: p.meta_title,
    meta_description: p.meta_description,
    og_image: p.image_detail[0] ?? null,
  };
}

export async function productLoader({ params, request }: { params: { id?: string }; request: Request }): Promise<ProductPageData | Response> {
  const id = courseIdFromParam(params.id);
  if (id === null) throw notFound();
  // The server found no such product when it wrote the page: nothing to ask for.
  if (takeBootData<boolean>(request, 'notFound')) throw notFound();
  const url = new URL(request.url);
  // A book: the shipping fees and the student's addresses come with the purchase data.
  const purchase = loadPurchaseData(id, request, true);
  purchase.catch(() => undefined);
  // The first page: the server wrote the product and the settings with the HTML.
  const booted = takeBootData<{ product: ProductDetail; settings: SiteSettings }>(request, 'product');
  const student = readsAsStudent(request);
  if (booted?.product.id) {
    const canonical = canonicalPath('/product', params.id ?? '', booted.product.link_path, url.search);
    if (canonical) return redirect(canonical);
    return { product: booted.product, course: asCourse(booted.product, await student), stock: booted.product.available_qty, settings: booted.settings, howToBuy: null, playlist: null, purchase };
  }
  try {
    const [p, settings, loggedIn] = await Promise.all([
      catalogueRequests.getProduct.call({ id }, request.signal),
      loadSiteSettings(request.signal),
      student,
    ]);
    const product = p.data;
    if (!product?.id) throw notFound();
    const canonical = canonicalPath('/product', params.id ?? '', product.link_path, url.search);
    if (canonical) return redirect(canonical);
    return { product, course: asCourse(product, loggedIn), stock: product.available_qty, settings, howToBuy: null, playlist: null, purchase };
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.code === 'NOT_FOUND')) throw notFound();
    throw error;
  }
}

