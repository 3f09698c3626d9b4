/**
 * Views only render machine state and send events: React state and effects in src/features are
 * allowed only for the UI-only uses listed here, each with its reason. A new `useState`,
 * `useReducer`, `useEffect`, `useLayoutEffect` or `useActionState` (a form action: it must only read
 * the form, check it and send) in a feature fails this test until it is listed —
 * and a use that decides the flow (what happens next, what is fetched, where the page goes) belongs
 * in a machine (a guard, a state, an `emit`), an actor (fromCallback, fromPromise) or a route
 * loader instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

type Hook = 'useState' | 'useReducer' | 'useEffect' | 'useLayoutEffect' | 'useActionState';

/** File (from the repository root) → hook → one reason per use. */
const ALLOWED: Record<string, Partial<Record<Hook, string[]>>> = {
  'src/features/course/CoursePage.tsx': {
    useEffect: [
      'browser storage: the page keeps its own path as the return link (spec section 2)',
    ],
  },
  'src/features/course/DeferredPurchase.tsx': {
    useEffect: ["code loading: DeferredPurchase starts fetching the checkout's chunk while the purchase data is asked for (a preload; no state, no event)"],
  },
  'src/features/product/ProductPage.tsx': {
    useEffect: ['browser storage: the page keeps its own path as the return link (spec section 2)'],
  },
  'src/features/checkout/checkout-actor.tsx': {
    useEffect: [
      'subscription: the checkout emits analytics events, forwarded to the data layer',
      'subscription: session and checkout tell each other of a login (actor.on, both ways)',
      'start-up: a restored flow is resumed once (payment.resume)',
      'browser event: a page brought back from the back/forward cache resumes its flow (pageshow)',
    ],
  },
  'src/features/checkout/shown-currency.tsx': {
    useEffect: ['display: the cart\'s currency is reported to the page\'s header prices'],
  },
  'src/features/checkout/components/PurchasePanel.tsx': {
    useEffect: [
      'focus management: a failed submit focuses the first field in error',
      'focus management: a refused modal registration focuses its first field in error',
    ],
    useActionState: [
      'form action: the modal registration is read, checked (domain/forms) and sent to the checkout (registration.submit)',
      'form action: the panel is read, checked (domain/forms, withholding for juristic persons only) and sent to the checkout (checkout.submit)',
    ],
  },
  'src/features/payments/OmiseCardModal.tsx': {
    useActionState: ['form action: the card is checked and tokenized by Omise.js in the page (the card never reaches a machine), the token sent (card.tokenized)'],
  },
  'src/features/payments/TwoC2pCardModal.tsx': {
    useActionState: ['form action: the card is checked and encrypted by 2C2P\'s script in the page (the card never reaches a machine), the result sent (card.encrypted / card.gatewayError)'],
  },
  'src/features/checkout/components/RegistrationForm.tsx': {
    useState: ['form display: the chosen tax person type shows its fields', 'form display: changing the person type remounts the tax fields empty'],
    useEffect: ['form display: choosing withholding ticks the tax-invoice box'],
  },
  'src/features/course/components/StickyBar.tsx': {
    useEffect: ['layout: the sticky bar\'s height is published as a CSS variable (scroll offsets)'],
  },
  'src/features/checkout/components/Layout4Help.tsx': {
    useEffect: ['focus management: the e-mail-taken notice is focused and scrolled into view'],
  },
  'src/features/cart/CartPage.tsx': {
    useEffect: [
      'document: the page title',
      'route data: the checkout\'s reloadCart effect reads the page\'s data again (registration of the implementation)',
    ],
  },
  'src/features/checkout/components/AccessCountdown.tsx': {
    useEffect: ['route data: a new access record, read again by the page (router revalidation), is sent to the countdown machine (countdown.update)'],
  },
  'src/features/orders/WithholdingCertificate.tsx': {
    useEffect: ['route data: the order\'s withholding, read again by the page (router revalidation), is sent to the certificate machine (order.read)'],
  },
};

const ROOT = join(__dirname, '..', '..');
const HOOKS: Hook[] = ['useState', 'useReducer', 'useEffect', 'useLayoutEffect', 'useActionState'];

function featureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return featureFiles(path);
    return /\.(ts|tsx)$/.test(e.name) ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

/** Calls of a hook, generic or not (`useState<T>(`, `React.useEffect(`); comments are not code. */
export function hookCalls(source: string, hook: Hook): number {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return (code.match(new RegExp(`\\b${hook}\\s*(<[^()]*>)?\\s*\\(`, 'g')) ?? []).length;
}

describe('views only render and send', () => {
  it('counts hook calls, generic ones included, and not those in comments', () => {
    const sample = "const [a] = useState<'x' | 'y'>('x');\n// useEffect(() => {})\nReact.useEffect(() => {});\n/* useState( */";
    expect(hookCalls(sample, 'useState')).toBe(1);
    expect(hookCalls(sample, 'useEffect')).toBe(1);
    expect(hookCalls("const [s, act] = useActionState<S, void>(async () => s, init);", 'useActionState')).toBe(1);
  });

  const files = featureFiles(join(ROOT, 'src', 'features'));
  it.each(files)('%s: React state and effects only for listed UI-only uses', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const hook of HOOKS) {
      const used = hookCalls(source, hook);
      const allowed = ALLOWED[file]?.[hook] ?? [];
      // At most the listed uses: a new one must be listed with its reason (or moved to a machine, an actor or a loader).
      expect(used, `${file}: ${used} ${hook} call(s), ${allowed.length} allowed: ${JSON.stringify(allowed)}`).toBeLessThanOrEqual(allowed.length);
    }
  });

  it('every allowed use says why', () => {
    for (const [file, hooks] of Object.entries(ALLOWED)) {
      for (const reasons of Object.values(hooks)) for (const reason of reasons ?? []) expect(reason.length, file).toBeGreaterThan(10);
    }
  });
});
