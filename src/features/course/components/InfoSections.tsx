import { Link } from 'react-router';
import type { components } from '../../../../generated/api';
import { t } from '../../../i18n/messages';
import { cardPrice, type Currency } from '../../../../domain/money';
import { Price } from '../../../ui';
import type { Course, HowToBuy, SiteSettings } from '../loader';
import { AddToCartButton } from '../../checkout/components/AddToCartButton';
import { HtmlBlock } from './CourseDescription';

type CourseSummary = components['schemas']['CourseSummary'];

export function HowToBuySection({ howToBuy, children }: { howToBuy: HowToBuy | null; children?: React.ReactNode }) {
  const show = howToBuy?.is_enable_howtobuy && howToBuy.description;
  if (!show && !children) return null;
  return (
    <section id="how-to-buy" className="course-section" aria-labelledby="how-to-buy-title" tabIndex={-1}>
      <h2 id="how-to-buy-title">{t('howToBuy')}</h2>
      {show ? <HtmlBlock html={howToBuy.description} className="course-description" /> : null}
      {children}
    </section>
  );
}

export function QuestionsSection() {
  return (
    <section id="questions" className="course-section" aria-labelledby="questions-title" tabIndex={-1}>
      <h2 id="questions-title">{t('questions')}</h2>
      <p className="ui-muted">{t('noComments')}</p>
    </section>
  );
}

function CourseCards({ title, courses, id, currency }: { title: string; courses: readonly CourseSummary[] | undefined; id: string; currency: Currency }) {
  if (!courses || courses.length === 0) return null;
  return (
    <section className="course-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="course-cards">
        {courses.map((c) => (
          <li key={c.id} className="course-card">
            {c.image ? <img src={c.image} alt="" width={320} height={180} loading="lazy" decoding="async" /> : null}
            <Link to={`/${c.course_type === 'Product' ? 'product' : 'course'}/${c.link_path}`}>{c.name}</Link>
            <Price {...cardPrice(c, currency)} freeWhenZero />
            <AddToCartButton courseId={c.id} name={c.name} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Optional lists below the page, each behind its site flag. */
export function RelatedCourses({ course, settings }: { course: Course; settings: SiteSettings }) {
  const r = course.related ?? {};
  return (
    <>
      {settings.course_teacher ? <CourseCards title={t('sameTeacher')} courses={r.same_teacher} id="related-teacher" currency={settings.currency} /> : null}
      {settings.course_group ? <CourseCards title={t('sameGroup')} courses={r.same_group} id="related-group" currency={settings.currency} /> : null}
      {settings.course_bestseller ? <CourseCards title={t('bestsellers')} courses={r.bestsellers} id="related-bestsellers" currency={settings.currency} /> : null}
    </>
  );
}
