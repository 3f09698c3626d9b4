import { Link, useLoaderData } from 'react-router';
import type { components } from '../../../generated/api';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { formatMoney } from '../../../domain/money';

type CourseSummary = components['schemas']['CourseSummary'];

/** Public course list (GET /public/courses, optional ?keyword=). */
export async function courseListLoader({ request }: { request: Request }): Promise<CourseSummary[]> {
  const keyword = new URL(request.url).searchParams.get('keyword') ?? undefined;
  const body = unwrap(await api.GET('/public/courses', { params: { query: keyword ? { keyword } : {} } }), 'listCourses');
  return body.data;
}

export function CourseListPage() {
  const courses = useLoaderData() as CourseSummary[];
  return (
    <main>
      <h1>คอร์สทั้งหมด</h1>
      <form role="search" method="get">
        <label htmlFor="keyword">ค้นหาคอร์ส</label> <input id="keyword" name="keyword" type="search" />{' '}
        <button type="submit">ค้นหา</button>
      </form>
      {courses.length === 0 ? (
        <p>ไม่พบคอร์ส</p>
      ) : (
        <ul data-testid="course-list">
          {courses.map((c) => (
            <li key={c.id}>
              <Link to={`/course/${c.link_path}`}>{c.name}</Link>{' '}
              <span>{c.default_price == null ? '' : c.default_price === 0 ? 'Free' : formatMoney(c.default_price, 'THB')}</span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
