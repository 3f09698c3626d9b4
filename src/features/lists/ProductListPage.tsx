import { useLoaderData } from 'react-router';
import { catalogueRequests } from '../../api/requests/catalogue';
import { siteCurrencyFor } from '../../api/settings';
import { msg, t } from '../../i18n/messages';
import { CardList } from './CardList';
import { listQuery } from './list-query';
import { SearchForm } from './SearchForm';
import type { AddToCartSlot, CardListData } from './CourseListPage';

/** Books and other products (GET /public/product, optional ?keyword= or ?filter=). */
export async function productListLoader({ request }: { request: Request }): Promise<CardListData> {
  const [products, currency] = await Promise.all([
    catalogueRequests.listProducts.call(listQuery(request), request.signal).then((r) => r.data),
    siteCurrencyFor(request),
  ]);
  return { courses: products, currency };
}

/** /products: each product with its picture, price, stock left, a link to its page and "add to cart". */
export function ProductListPage({ AddToCart }: { AddToCart: AddToCartSlot }) {
  const { courses: products, currency } = useLoaderData() as CardListData;
  return (
    <main className="page" data-testid="product-list-page">
      <title>{`${t('books')} — ${msg('APP_TITLE')}`}</title>
      <h1>{t('books')}</h1>
      <SearchForm inputId="product-keyword" labelKey="searchProducts" />
      <CardList
        cards={products}
        currency={currency}
        testId="product-list"
        emptyKey="noProducts"
        hrefOf={(p) => `/product/${p.link_path}`}
        extra={(p) => (
          <>
            {p.available_qty !== null && p.available_qty !== undefined ? <span className="ui-muted">{t('stockLeft', { count: p.available_qty })}</span> : null}
            <AddToCart courseId={p.id} name={p.name} />
          </>
        )}
      />
    </main>
  );
}
