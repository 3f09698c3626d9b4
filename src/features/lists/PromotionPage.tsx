import { Link, useLoaderData } from 'react-router';
import type { components } from '../../../generated/api';
import { takeBootData } from '../../api/boot-data';
import { cartRequests } from '../../api/requests/cart';
import { catalogueRequests } from '../../api/requests/catalogue';
import { t } from '../../i18n/messages';

type Promotion = components['schemas']['Promotion'];
type CourseSummary = components['schemas']['CourseSummary'];

export interface PromotionData {
  promotion: Promotion;
  courses: CourseSummary[];
}

/** /promotion/:id: the promotion and its courses (from the public promotion and course lists). */
export async function promotionLoader({ params, request }: { params: { id?: string }; request: Request }): Promise<PromotionData> {
  const id = Number(params.id);
  // The first page: the server wrote the promotion and its courses (or its 404) with the HTML.
  if (takeBootData<boolean>(request, 'notFound')) throw new Response('404 Page not found !', { status: 404 });
  const booted = takeBootData<PromotionData>(request, 'promotion');
  if (booted) return booted;
  const [promos, courses] = await Promise.all([cartRequests.getAllPromotions.call(undefined, request.signal), catalogueRequests.listCourses.call({}, request.signal)]);
  const promotion = promos.data.find((p) => p.id === id);
  if (!promotion) throw new Response('404 Page not found !', { status: 404 });
  const ids = new Set(promotion.coursesInPromotion.length > 0 ? promotion.coursesInPromotion : promotion.courses);
  return { promotion, courses: courses.data.filter((c) => ids.has(c.id)) };
}

export function PromotionPage() {
  const { promotion, courses } = useLoaderData() as PromotionData;
  return (
    <main className="page" data-testid="promotion-page">
      <p className="ui-muted">{t('promotionTitle')}</p>
      <h1>{promotion.title}</h1>
      {promotion.description_list.length > 0 ? (
        <ul>
          {promotion.description_list.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      ) : null}
      <h2>{t('coursesInPromotion')}</h2>
      <ul>
        {courses.map((c) => (
          <li key={c.id}>
            <Link to={`/${c.course_type === 'Product' ? 'product' : 'course'}/${c.link_path}`}>{c.name}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
