import { useEffect, useRef } from 'react';
import { planPrice } from '../../../../domain/money';
import { t } from '../../../i18n/messages';
import { Price } from '../../../ui';
import { useShownCurrency } from '../../checkout/shown-currency';

export interface StickyBarProps {
  /** The default plan's price in minor units, THB and USD; 0 shows Free, null (in the shown currency) hides it. */
  startingPrice: { price: number | null; price_usd: number | null | undefined };
  onRegister: () => void;
  registerDisabled?: boolean;
}

const LINKS: { href: string; key: 'courseDetail' | 'courseContent' | 'howToBuy' | 'questions' }[] = [
  { href: '#course-detail', key: 'courseDetail' },
  { href: '#course-content', key: 'courseContent' },
  { href: '#how-to-buy', key: 'howToBuy' },
  { href: '#questions', key: 'questions' },
];

function scrollToSection(hash: string) {
  const target = document.querySelector<HTMLElement>(hash);
  if (!target) return;
  const reduce = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  target.focus({ preventScroll: true });
}

/**
 * Focuses the first element matching one of `selectors` — now, or as soon as it is rendered (the
 * purchase panel is a lazy chunk: a click on the sticky bar may come before it exists). Gives up
 * after `timeoutMs` so nothing watches the page forever.
 */
export function focusWhenRendered(selectors: readonly string[], timeoutMs = 5000): void {
  const find = () => selectors.map((sel) => document.querySelector<HTMLElement>(sel)).find((el) => el !== null) ?? null;
  const now = find();
  if (now) {
    now.focus({ preventScroll: true });
    return;
  }
  const observer = new MutationObserver(() => {
    const el = find();
    if (!el) return;
    observer.disconnect();
    window.clearTimeout(timer);
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center' });
  });
  const timer = window.setTimeout(() => observer.disconnect(), timeoutMs);
  observer.observe(document.body, { childList: true, subtree: true });
}

/**
 * The bar's height, at every width, as the page's `--sticky-offset` (course.css: the root's
 * scroll-padding-top and the scroll-margin-top of sections and form fields), so nothing its
 * links, a failed submit or the browser's own focus scrolling brings into view lands under it.
 */
function useStickyOffset(ref: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    const root = document.documentElement;
    if (!el) return;
    const set = (height: number) => root.style.setProperty('--sticky-offset', `${Math.ceil(height)}px`);
    // The ResizeObserver reports the bar's size once after the page's next layout and again at
    // every change, so nothing here makes the browser lay the page out in the middle of React's
    // commit (reading the size now did: the page's whole first layout inside the commit's task).
    if (typeof ResizeObserver === 'function') {
      const observer = new ResizeObserver((entries) => {
        const entry = entries[entries.length - 1];
        if (entry) set(entry.borderBoxSize?.[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
      });
      observer.observe(el);
      return () => {
        observer.disconnect();
        root.style.removeProperty('--sticky-offset');
      };
    }
    const measure = () => set(el.getBoundingClientRect().height);
    measure();
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('resize', measure);
      root.style.removeProperty('--sticky-offset');
    };
  }, [ref]);
}

/** Layout 4's sticky bar: section links, the starting price and the register button. */
export function StickyBar({ startingPrice: prices, onRegister, registerDisabled }: StickyBarProps) {
  const currency = useShownCurrency('THB');
  const startingPrice = planPrice(prices, currency);
  const ref = useRef<HTMLElement>(null);
  useStickyOffset(ref);
  return (
    <nav ref={ref} className="sticky-bar" aria-label={t('stickyNav')} data-testid="sticky-bar">
      <ul className="sticky-bar__links">
        {LINKS.map((l) => (
          <li key={l.href}>
            <a
              href={l.href}
              onClick={(event) => {
                event.preventDefault();
                scrollToSection(l.href);
              }}
            >
              {t(l.key)}
            </a>
          </li>
        ))}
      </ul>
      <div className="sticky-bar__buy">
        {startingPrice !== null ? (
          <span className="sticky-bar__price" data-testid="sticky-price">
            <span className="ui-muted">{t('startingPrice')} </span>
            <Price amount={startingPrice} currency={currency} freeWhenZero />
          </span>
        ) : null}
        <button type="button" className="ui-btn ui-btn--primary" onClick={onRegister} disabled={registerDisabled} data-testid="sticky-register">
          {t('register')}
        </button>
      </div>
    </nav>
  );
}

export { scrollToSection };
