import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../generated/api';
import { t } from '../../../i18n/messages';
import { cardPrice, type Currency } from '../../../../domain/money';
import { Button, Price } from '../../../ui';
import type { Course, HowToBuy, SiteSettings } from '../loader';
import { HtmlBlock } from './CourseDescription';

/**
 * The cards' "Add to cart" renders the add-to-cart machine, so it brings XState: a chunk of its own,
 * fetched when the cards render, so that the course route's first load does not carry XState (the
 * page's purchase panel loads it with the checkout's code). Until it is there the card shows the
 * same button, disabled and busy, in the same place.
 */
const AddToCartButton = lazy(async () => ({ default: (await import('../../checkout/components/AddToCartButton')).AddToCartButton }));

function AddToCartLoading({ name }: { name: string }) {
  return (
    <div className="add-to-cart">
      <Button variant="secondary" disabled aria-busy="true" aria-label={`${t('addToCart')}: ${name}`}>
        {t('addToCart')}
      </Button>
      <p className="add-to-cart__status" />
    </div>
  );
}

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
            <Suspense fallback={<AddToCartLoading name={c.name} />}>
              <AddToCartButton courseId={c.id} name={c.name} />
            </Suspense>
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
