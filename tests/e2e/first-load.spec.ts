// What a course or product page does while it starts, beyond what the buyer sees at the end
// (bench/why.md, the thirteenth pass): the stylesheet the page holds inside itself is not fetched
// again with the route's chunks; the product page's server-written first view is never replaced by
// a spinner while the session starts; the root's scroll-padding is never changed (each change
// re-snapped the viewport, which shows and fades a phone's overlay scrollbar: some twenty frames
// composited while the page starts), and on layout 4 whatever takes focus still lands below the
// sticky bar.
import { expect, test } from './engine/fixtures';

test('a course page does not fetch the stylesheet it holds inside itself, nor any stylesheet twice', async ({ page }) => {
  const sheets: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'stylesheet') sheets.push(new URL(r.url()).pathname);
  });
  await page.goto('/course/5');
  await expect(page.getByTestId('purchase-panel')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('checkout-submit')).toBeVisible();
  // the page's own rules (inlined) are there once: not a second time from a fetched copy
  const rootRules = await page.evaluate(() => [...document.styleSheets].filter((s) => !s.disabled).flatMap((s) => [...s.cssRules]).filter((r) => r instanceof CSSStyleRule && r.selectorText === ':root').length);
  expect(rootRules).toBe(1);
  expect(new Set(sheets).size).toBe(sheets.length);
  // the route's own stylesheet did load (course.css)
  expect(sheets.length).toBeGreaterThan(0);
  // the inlined stylesheet's link is in the page, disabled, and was never fetched
  const inlined = await page.locator('link[rel="stylesheet"][disabled]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
  expect(inlined).toHaveLength(1);
  expect(sheets).not.toContain(inlined[0]);
});

test("the first view writes the course's name and price in the sizes the page gives them, phone and desktop (no jump when the page takes over)", async ({ page }) => {
  const sizes = (selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).fontSize);
  for (const width of [412, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // the first view alone: the app's code held back
    await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
    await page.goto('/course/2');
    const first = { title: await sizes('.boot-title'), price: await sizes('.boot-price') };
    await page.unroute(/\/assets\/[^/]+\.js$/);
    await page.goto('/course/2');
    await expect(page.getByTestId('purchase-panel')).toBeVisible({ timeout: 20_000 });
    expect(first, `${width} px`).toEqual({ title: await sizes('.course-hero__title'), price: await sizes('.course-hero__price') });
  }
});

test("phone and desktop: the page's largest paint is the first view's picture; the page's own copy of it, when the app takes over, is no larger (LCP stays at the first paint)", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __lcp: string[] }).__lcp = seen;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) seen.push(e.element ? e.element.className || e.element.tagName : '(removed)');
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  // As on a slow connection (and under Lighthouse's): the first view's picture is painted before
  // the app's code runs. The app's code waits until it is (here the picture and the code come from
  // the same machine, and which comes first is a race; when the app is first, its copy is the
  // picture's first paint, rightly).
  const firstPicturePainted = () => (window as unknown as { __lcp: string[] }).__lcp.some((e) => e.includes('boot-hero'));
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    await page.waitForFunction(firstPicturePainted, undefined, { timeout: 15_000 }).catch(() => undefined);
    await route.continue();
  });
  // a phone, and a desktop (the picture in a column beside the purchase area)
  for (const width of [412, 1280]) {
    await page.setViewportSize({ width, height: 823 });
    // layouts 1-4 and the product page
    for (const path of ['/course/2', '/course/3', '/course/7', '/course/5', '/product/12']) {
      await page.goto(path);
      await expect(page.getByTestId('purchase-panel')).toBeVisible({ timeout: 20_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
      const entries = await page.evaluate(() => (window as unknown as { __lcp: string[] }).__lcp);
      expect(entries.at(-1), `${path} at ${width} px: ${entries.join(' → ')}`).toMatch(/boot-hero/);
    }
  }
});

test("the product page's first view is not replaced by a spinner while the session starts", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __spinners: string[] }).__spinners = seen;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof Element && (n.matches('.ui-spinner') || n.querySelector('.ui-spinner'))) seen.push(n.outerHTML.slice(0, 120));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/product/12');
  await expect(page.getByTestId('product-price')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('checkout-submit')).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __spinners: string[] }).__spinners)).toEqual([]);
});

test("layout 4: the root's scroll-padding never changes while the page starts; a control focused under the sticky bar is brought below it", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.addInitScript(() => {
    const values: string[] = [];
    (window as unknown as { __padding: string[] }).__padding = values;
    const sample = () => {
      const now = getComputedStyle(document.documentElement).scrollPaddingTop;
      if (!values.includes(now)) values.push(now);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.goto('/course/5');
  const bar = page.getByTestId('sticky-bar');
  await expect(bar).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('checkout-submit')).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __padding: string[] }).__padding)).toEqual(['auto']);

  // A control scrolled under the bar, then focused from the keyboard: the browser brings it below the bar.
  const control = page.getByTestId('purchase-panel').locator('input:not([type=hidden])').first();
  await control.evaluate((el) => {
    // the bar, once stuck, spans the top of the viewport: the control's top at half its height
    const barHeight = document.querySelector('[data-testid="sticky-bar"]')!.getBoundingClientRect().height;
    window.scrollBy(0, el.getBoundingClientRect().top - barHeight / 2);
  });
  await expect.poll(async () => (await control.boundingBox())!.y).toBeLessThan((await bar.boundingBox())!.height);
  await control.evaluate((el) => {
    // the control before it, so Tab lands on it as a keyboard user's would
    const all = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter((e) => e.tabIndex >= 0 && !(e as HTMLInputElement).disabled && e.getClientRects().length > 0);
    all[all.indexOf(el as HTMLElement) - 1]!.focus({ preventScroll: true });
  });
  await page.keyboard.press('Tab');
  await expect(control).toBeFocused();
  await expect
    .poll(async () => {
      const b = (await bar.boundingBox())!;
      return (await control.boundingBox())!.y >= b.y + b.height - 1;
    })
    .toBe(true);
});

// Layout 2 on a phone shows the top of "course content" under the description: a description
// added when DOMPurify came pushed it down (Lighthouse's slower runs: CLS 0.01). DOMPurify is made
// late here on purpose; the page waits for it and nothing that was shown moves.
test('layout 2 at 412 px: nothing shown moves when DOMPurify comes late (CLS 0)', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.route(/\/assets\/purify[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.addInitScript(() => {
    const shifts: string[] = [];
    (window as unknown as { __shifts: string[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node | null }[] })[]) shifts.push(`${e.value.toFixed(4)} ${e.sources.map((s) => (s.node as Element | null)?.id || s.node?.nodeName).join(',')}`);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/course/3');
  await expect(page.getByTestId('course-description')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('checkout-submit')).toBeVisible({ timeout: 20_000 });
  // a frame after the last change, for the observer
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts)).toEqual([]);
});
