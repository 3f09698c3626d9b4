import { Link, useLoaderData } from 'react-router';
import type { components } from '../../../generated/api';
import type { Currency } from '../../../domain/money';
import { takeBootData } from '../../api/boot-data';
import { catalogueRequests } from '../../api/requests/catalogue';
import { siteCurrencyFor } from '../../api/settings';
import { msg, t } from '../../i18n/messages';
import { CardList } from './CardList';
import { listQuery } from './list-query';
import { SearchForm } from './SearchForm';

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
  const body = await catalogueRequests.listCourses.call(listQuery(request), request.signal);
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
  return (
    <main className="page" data-testid="course-list-page">
      <title>{`${t('allCourses')} — ${msg('APP_TITLE')}`}</title>
      <h1>{t('allCourses')}</h1>
      <p>
        <Link to="/products" data-testid="products-link">
          {t('books')}
        </Link>{' '}
        · <Link to="/cart">{t('cart')}</Link>
      </p>
      <SearchForm inputId="keyword" labelKey="searchCourses" />
      <CardList
        cards={courses}
        currency={currency}
        testId="course-list"
        emptyKey="noCourses"
        hrefOf={(c) => `/${c.course_type === 'Product' ? 'product' : 'course'}/${c.link_path}`}
        extra={(c) => <AddToCart courseId={c.id} name={c.name} />}
      />
    </main>
  );
}
