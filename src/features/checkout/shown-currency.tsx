/**
 * The currency the course page shows its prices in. The cart machine decides it (the site's
 * currency only when every line is priced in it, else THB; then the buyer's THB/USD choice). The
 * hero and the sticky bar sit outside the checkout (a lazy chunk), so the checkout reports the
 * cart's currency here and they render it. Before the checkout is there: the site's currency when
 * the course is offered in it (domain shownCurrency), as the cart will start.
 */
import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { Currency } from '../../../domain/money';

interface CurrencyStore {
  get(): Currency;
  set(currency: Currency): void;
  subscribe(listener: () => void): () => void;
}

function currencyStore(initial: Currency): CurrencyStore {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(currency) {
      if (currency === current) return;
      current = currency;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ShownCurrencyContext = createContext<CurrencyStore | null>(null);

/** One store per course page (the caller keys it on the course). */
export function ShownCurrencyProvider({ initial, children }: { initial: Currency; children: ReactNode }) {
  const store = useRef<CurrencyStore | null>(null);
  store.current ??= currencyStore(initial);
  return <ShownCurrencyContext.Provider value={store.current}>{children}</ShownCurrencyContext.Provider>;
}

const never = () => () => undefined;

/** The page's shown currency; `fallback` outside a provider. */
export function useShownCurrency(fallback: Currency): Currency {
  const store = useContext(ShownCurrencyContext);
  return useSyncExternalStore(store?.subscribe ?? never, store?.get ?? (() => fallback), store?.get ?? (() => fallback));
}

/** Rendered inside the checkout: reports the cart's currency to the page. */
export function ReportShownCurrency({ currency }: { currency: Currency }) {
  const store = useContext(ShownCurrencyContext);
  useEffect(() => {
    store?.set(currency);
  }, [store, currency]);
  return null;
}
