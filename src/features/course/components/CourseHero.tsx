import { planPrice } from '../../../../domain/money';
import { COURSE_PICTURE, coursePicture } from '../../../../domain/values';
import type { Course } from '../loader';
import { t } from '../../../i18n/messages';
import { PlayIcon, Price } from '../../../ui';
import { useShownCurrency } from '../../checkout/shown-currency';

export interface CourseHeroProps {
  course: Course;
  /** Starting playback replaces the page with the playlist view (?learn=true). */
  playlistHref: string;
}

/** Course video / info: cover or preview, name, type, instructor, seats. */
export function CourseHero({ course, playlistHref }: CourseHeroProps) {
  const poster = coursePicture(course);
  const currency = useShownCurrency('THB');
  // The starting price in the shown currency; none in it (a course without a USD price): not shown.
  const price = planPrice({ price: course.default_price, price_usd: course.default_price_usd }, currency);
  const instructor = course.instructor ? `${course.instructor.firstname} ${course.instructor.lastname}`.trim() : null;
  return (
    <section className="course-hero" aria-labelledby="course-title" data-testid="course-hero">
      <div className="course-hero__media">
        {poster ? (
          <img src={poster} alt="" width={COURSE_PICTURE.width} height={COURSE_PICTURE.height} className="course-hero__image" fetchPriority="high" decoding="async" />
        ) : (
          <div className="course-hero__image course-hero__image--empty" aria-hidden="true" />
        )}
        {course.preview_video ? (
          <a className="course-hero__play ui-btn ui-btn--primary" href={playlistHref} data-testid="watch-preview">
            <PlayIcon /> {t('watchPreview')}
          </a>
        ) : null}
      </div>
      <div className="course-hero__info">
        <p className="course-hero__type">{course.course_type}</p>
        <h1 id="course-title" className="course-hero__title">
          {course.name}
        </h1>
        {instructor ? (
          <p className="course-hero__instructor">
            {t('instructor')}: {instructor}
          </p>
        ) : null}
        {course.seats_available !== null && course.seats_available !== undefined ? <p className="course-hero__seats">{t('seatsLeft', { count: course.seats_available })}</p> : null}
        {price !== null ? (
          <p className="course-hero__price" data-testid="hero-price">
            {t('startingPrice')} <Price amount={price} currency={currency} freeWhenZero />
          </p>
        ) : null}
      </div>
    </section>
  );
}
