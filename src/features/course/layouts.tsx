import type { ReactNode } from 'react';
import { t } from '../../i18n/messages';
import type { LayoutId } from '../checkout/purchase-data';

export type { LayoutId };

/** Per-course override, else the site setting layout_course_detail, else 3. */
export function resolveLayout(courseLayout: number | null | undefined, siteLayout: number | null | undefined): LayoutId {
  for (const v of [courseLayout, siteLayout]) if (v === 1 || v === 2 || v === 3 || v === 4) return v;
  return 3;
}

export interface LayoutSlots {
  hero: ReactNode;
  description: ReactNode;
  curriculum: ReactNode;
  purchase: ReactNode;
  howToBuy: ReactNode;
  questions: ReactNode;
  related: ReactNode;
  /** Layout 4 only. */
  stickyBar?: ReactNode;
}

/**
 * The four arrangements of the same sections (mobile first: one column; wider screens as below).
 * 1: one column — video/info, purchase, description, curriculum.
 * 2: two columns — video/info + description + curriculum | purchase panel (sticky).
 * 3 (default): video/info across the top, then description + curriculum | purchase panel.
 * 4: video/info, the sticky bar, description, curriculum, then how-to-buy with the whole checkout
 *    (registration, cart, coupons, promotions, payment, tax invoice) embedded, questions.
 */
export function CourseLayout({ layout, slots }: { layout: LayoutId; slots: LayoutSlots }) {
  if (layout === 1) {
    return (
      <main className="course course--l1" data-layout="1">
        {slots.hero}
        <aside className="course__purchase" aria-label={t('purchaseArea')}>
          {slots.purchase}
        </aside>
        {slots.description}
        {slots.curriculum}
        {slots.howToBuy}
        {slots.questions}
        {slots.related}
      </main>
    );
  }
  if (layout === 2) return <TwoColumns layout={2} slots={slots} heroInMain />;
  if (layout === 4) {
    return (
      <main className="course course--l4" data-layout="4">
        {slots.hero}
        {slots.stickyBar}
        <div className="course__single">
          {slots.description}
          {slots.curriculum}
          {slots.howToBuy}
          {slots.questions}
          {slots.related}
        </div>
      </main>
    );
  }
  return <TwoColumns layout={3} slots={slots} heroInMain={false} />;
}

/** Layouts 2 and 3: the course in the main column, the checkout in a sticky column beside it; the hero above both (3) or in the main column (2). */
function TwoColumns({ layout, slots, heroInMain }: { layout: 2 | 3; slots: LayoutSlots; heroInMain: boolean }) {
  return (
    <main className={`course course--l${layout}`} data-layout={String(layout)}>
      {heroInMain ? null : slots.hero}
      <div className="course__grid">
        <div className="course__main">
          {heroInMain ? slots.hero : null}
          {slots.description}
          {slots.curriculum}
          {slots.howToBuy}
          {slots.questions}
        </div>
        <aside className="course__purchase course__purchase--sticky" aria-label={t('purchaseArea')}>
          {slots.purchase}
        </aside>
      </div>
      {slots.related}
    </main>
  );
}
