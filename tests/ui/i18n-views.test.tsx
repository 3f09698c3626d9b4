// The views render in English when English is chosen (no Thai letter but in the shop's
// own names and texts) and switch back to Thai; the header's switch is the one place to choose.
import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { CoursePage } from '../../src/features/course/CoursePage';
import type { CoursePageData } from '../../src/features/course/loader';
import { PaymentHost } from '../../src/features/payments/PaymentHost';
import { LanguageSwitch } from '../../src/app/RootLayout';
import { getLocale, setLocale, t } from '../../src/i18n/messages';
import { SessionProvider } from '../../src/session';
import { Notifications, toasts } from '../../src/ui';
import { scriptedCheckout } from '../support/ui-checkout';
import { pageData } from './fixtures';

const THAI = /[\u0E00-\u0E7F]/u;

afterEach(() => setLocale('th'));

/** Visible text nodes (not inside script/style/title) of the document, trimmed, non-empty. */
function textNodes(root: Node = document.body): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('script,style,title,[hidden],[aria-hidden="true"]')) continue;
    const text = (n.textContent ?? '').trim();
    if (text) out.push(text);
  }
  return out;
}

function renderCourse(data: CoursePageData) {
  toasts.clear();
  const s = scriptedCheckout({ getBankCodeOptions: { ok: [] } });
  const router = createMemoryRouter(
    [{ path: '/course/:id', loader: () => data, element: <CoursePage PaymentHost={(p) => <PaymentHost {...p} bankCodes={[]} />} logic={s.logic} />, HydrateFallback: () => null }],
    { initialEntries: [`/course/${data.course.link_path}`] },
  );
  render(
    <SessionProvider user={null} logic={s.session}>
      <LanguageSwitch />
      <RouterProvider router={router} />
      <Notifications />
    </SessionProvider>,
  );
  return router;
}

/** The shop's own texts (names, descriptions) are not the catalogue's: they stay as the shop wrote them. */
function shopTexts(data: unknown): string[] {
  return JSON.stringify(data)
    .match(/"(?:[^"\\]|\\.)*"/g)!
    .map((s) => JSON.parse(s) as string)
    .filter((s) => THAI.test(s));
}

describe('the course page in English', () => {
  it('has no Thai letter outside the shop\'s own texts; the switch brings Thai back', async () => {
    const data = pageData();
    setLocale('en');
    const router = renderCourse(data);
    await screen.findByTestId('purchase-panel', {}, { timeout: 15_000 });
    // The shop's data (course, plan, bank and label names), also what the page loads later.
    const own = shopTexts([data, await (data as unknown as { purchase: Promise<unknown> }).purchase]);
    const thai = textNodes().filter((s) => THAI.test(s) && !own.some((o) => o.includes(s) || s.includes(o)) && s !== t('langTh'));
    expect(thai).toEqual([]);
    screen.getByRole('heading', { name: 'Pricing' });
    expect(document.documentElement.lang).toBe('en');

    // The switch: Thai again, after the route renders again (the app revalidates its loaders).
    await userEvent.click(screen.getByTestId('lang-th'));
    expect(getLocale()).toBe('th');
    await act(async () => {
      await router.revalidate();
    });
    screen.getByRole('heading', { name: 'รูปแบบราคา' });
    expect(screen.getByTestId('lang-th').getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.lang).toBe('th');
  }, 30_000);
});
