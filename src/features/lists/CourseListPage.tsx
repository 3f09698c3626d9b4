import { Form, Link, useLoaderData, useSearchParams } from 'react-router';
import type { components } from '../../../generated/api';
import { cardPrice, type Currency } from '../../../domain/money';
import { takeBootData } from '../../api/boot-data';
import { catalogueActors } from '../../api/actors';
import { siteCurrencyFor } from '../../api/settings';
import { t } from '../../i18n/messages';
import { Price } from '../../ui';

type CourseSummary = components['schemas']['CourseSummary'];

export interface CardListData {
  courses: CourseSummary[];
  /** The site's currency: each card's price in it where the course has one (cardPrice). */
  currency: Currency;
}

async function listCourses(request: Request): Promise<CourseSummary[]> {
  // The first page: the server wrote the list (same query) with the HTML.
  const booted = takeBootData<CourseSummary[]>(request, 'list');
  if (booted) return booted;
  const params = new URL(request.url).searchParams;
  const keyword = params.get('keyword') || undefined;
  const filter = params.get('filter') || undefined;
  const query = { ...(keyword ? { keyword } : {}), ...(filter ? { filter } : {}) };
  const body = await catalogueActors.listCourses.call(query, request.signal);
  return body.data;
}

/** Public course list (GET /public/courses, optional ?keyword= or ?filter=) and the site's currency. */
export async function courseListLoader({ request }: { request: Request }): Promise<CardListData> {
  const [courses, currency] = await Promise.all([listCourses(request), siteCurrencyFor(request)]);
  return { courses, currency };
}

/** The "add to cart" button, handed in by the route (features do not import each other). */
export type AddToCartSlot = (props: { courseId: number; name: string }) => React.ReactNode;

export function CourseListPage({ AddToCart }: { AddToCart: AddToCartSlot }) {
  const { courses, currency } = useLoaderData() as CardListData;
  const [params] = useSearchParams();
  return (
    <main className="page" data-testid="course-list-page">
      <title>{`${t('allCourses')} — ${t('appTitle')}`}</title>
      <h1>{t('allCourses')}</h1>
      <p>
        <Link to="/products" data-testid="products-link">
          {t('books')}
        </Link>{' '}
        · <Link to="/cart">{t('cart')}</Link>
      </p>
      <Form role="search" method="get" className="search">
        <label htmlFor="keyword" className="ui-field__label">
          {t('searchCourses')}
        </label>
        <div className="coupon__row">
          <input id="keyword" name="keyword" type="search" className="ui-input" defaultValue={params.get('keyword') ?? ''} />
          <button type="submit" className="ui-btn ui-btn--secondary">
            {t('search')}
          </button>
        </div>
      </Form>
      {courses.length === 0 ? (
        <p>{t('noCourses')}</p>
      ) : (
        <ul className="course-list" data-testid="course-list">
          {courses.map((c, i) => (
            <li key={c.id}>
              {c.image ? <img src={c.image} alt="" width={320} height={180} loading={i < 3 ? 'eager' : 'lazy'} decoding="async" /> : null}
              <Link to={`/${c.course_type === 'Product' ? 'product' : 'course'}/${c.link_path}`}>{c.name}</Link>
              {c.short_description ? <span className="ui-muted">{c.short_description}</span> : null}
              <Price {...cardPrice(c, currency)} freeWhenZero />
              <AddToCart courseId={c.id} name={c.name} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
