import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../generated/api';
import { cardPrice, type Currency } from '../../../domain/money';
import { t, type UiKey } from '../../i18n/messages';
import { Price } from '../../ui';

type CourseSummary = components['schemas']['CourseSummary'];

/**
 * The lists' cards: each with its picture (the first three load at once), the link to its page,
 * its short description and price in the site's currency, then `extra` (stock left, "add to
 * cart"); the `emptyKey` text when there is none.
 */
export function CardList({ cards, currency, testId, emptyKey, hrefOf, extra }: { cards: CourseSummary[]; currency: Currency; testId: string; emptyKey: UiKey; hrefOf: (card: CourseSummary) => string; extra: (card: CourseSummary) => ReactNode }) {
  if (cards.length === 0) return <p>{t(emptyKey)}</p>;
  return (
    <ul className="course-list" data-testid={testId}>
      {cards.map((c, i) => (
        <li key={c.id}>
          {c.image ? <img src={c.image} alt="" width={320} height={180} loading={i < 3 ? 'eager' : 'lazy'} decoding="async" /> : null}
          <Link to={hrefOf(c)}>{c.name}</Link>
          {c.short_description ? <span className="ui-muted">{c.short_description}</span> : null}
          <Price {...cardPrice(c, currency)} freeWhenZero />
          {extra(c)}
        </li>
      ))}
    </ul>
  );
}
