import { Form, Link, useLoaderData, useSearchParams } from 'react-router';
import { cardPrice } from '../../../domain/money';
import { catalogueActors } from '../../api/actors';
import { siteCurrencyFor } from '../../api/settings';
import { t } from '../../i18n/messages';
import { Price } from '../../ui';
import type { AddToCartSlot, CardListData } from './CourseListPage';

/** Books and other products (GET /public/product, optional ?keyword= or ?filter=). */
export async function productListLoader({ request }: { request: Request }): Promise<CardListData> {
  const params = new URL(request.url).searchParams;
  const keyword = params.get('keyword') || undefined;
  const filter = params.get('filter') || undefined;
  const query = { ...(keyword ? { keyword } : {}), ...(filter ? { filter } : {}) };
  const [products, currency] = await Promise.all([
    catalogueActors.listProducts.call(query, request.signal).then((r) => r.data),
    siteCurrencyFor(request),
  ]);
  return { courses: products, currency };
}

/** /products: each product with its picture, price, stock left, a link to its page and "add to cart". */
export function ProductListPage({ AddToCart }: { AddToCart: AddToCartSlot }) {
  const { courses: products, currency } = useLoaderData() as CardListData;
  const [params] = useSearchParams();
  return (
    <main className="page" data-testid="product-list-page">
      <title>{`${t('books')} — ${t('appTitle')}`}</title>
      <h1>{t('books')}</h1>
      <Form role="search" method="get" className="search">
        <label htmlFor="product-keyword" className="ui-field__label">
          {t('searchProducts')}
        </label>
        <div className="coupon__row">
          <input id="product-keyword" name="keyword" type="search" className="ui-input" defaultValue={params.get('keyword') ?? ''} />
          <button type="submit" className="ui-btn ui-btn--secondary">
            {t('search')}
          </button>
        </div>
      </Form>
      {products.length === 0 ? (
        <p>{t('noProducts')}</p>
      ) : (
        <ul className="course-list" data-testid="product-list">
          {products.map((p, i) => (
            <li key={p.id}>
              {p.image ? <img src={p.image} alt="" width={320} height={180} loading={i < 3 ? 'eager' : 'lazy'} decoding="async" /> : null}
              <Link to={`/product/${p.link_path}`}>{p.name}</Link>
              {p.short_description ? <span className="ui-muted">{p.short_description}</span> : null}
              <Price {...cardPrice(p, currency)} freeWhenZero />
              {p.available_qty !== null && p.available_qty !== undefined ? <span className="ui-muted">{t('stockLeft', { count: p.available_qty })}</span> : null}
              <AddToCart courseId={p.id} name={p.name} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
