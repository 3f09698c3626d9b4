import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './engine/fixtures';

/** The shop's courses and products, as the API lists them. */
async function catalogue(request: APIRequestContext) {
  const courses = (await (await request.get('/public/courses')).json()).data as { name: string; link_path: string; course_type: string }[];
  const products = (await (await request.get('/public/product')).json()).data as { name: string; link_path: string }[];
  return { courses, products };
}

/** Every page a buyer reaches from the home page: the lists, every course and every product. */
function seededPages({ courses, products }: Awaited<ReturnType<typeof catalogue>>): string[] {
  const coursePages = courses.filter((c) => c.course_type !== 'Product').map((c) => `/course/${c.link_path}`);
  // ?learn=true opens the preview playlist (the lesson videos).
  return ['/', '/products', ...coursePages, ...coursePages.map((p) => `${p}?learn=true`), ...products.map((p) => `/product/${p.link_path}`)];
}

// One walk over every seeded page (each page loaded once, to keep the suite's time down), at 375 px.
// On its way it checks what the home page links to (every course type, every product, through the
// page's own link to the product list) and plays the English course's preview: pages the walk has
// loaded anyway, instead of two more tests that loaded them again in fresh browsers.
test('every seeded page: each <img>/<video>/<iframe> source answers 200, and it fits a 375 px screen (no sideways scroll); every course type and product is reachable from the home page; the English preview is the shop\'s own video and plays', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 375, height: 800 });
  const shop = await catalogue(request);
  const pages = seededPages(shop);
  expect(pages.length).toBeGreaterThan(10);
  const types = new Set(shop.courses.map((c) => c.course_type));
  for (const type of ['Online', 'Flex', 'In-class', 'Private-Classroom', 'Live-Broadcast', 'Live-Room', 'Live-Room-Student-Camera']) expect(types).toContain(type);
  const broken: string[] = [];
  const wide: string[] = [];
  const checked = new Set<string>();
  let previewPlayed = false;
  for (const path of [...pages, '/cart']) {
    if (path === '/products') {
      // from the home page (the page before), through its link
      await page.getByTestId('products-link').click();
      await expect(page).toHaveURL(/\/products$/);
    } else {
      await page.goto(path);
    }
    // The page as the app shows it, with nothing still loading: the first view gone (its main is
    // busy), no placeholder still waiting for its data or code (aria-busy: the purchase area, an HTML
    // block, an add-to-cart button), no spinner (a route's chunk) and no page-load bar. Once a
    // page has loaded, the network stayed busy for no content of it: 500 ms of quiet (networkidle) a page.
    await expect(page.locator('[aria-busy="true"], .ui-spinner, .route-progress')).toHaveCount(0);
    if (path === '/') for (const c of shop.courses) await expect(page.getByRole('link', { name: c.name, exact: true })).toBeVisible();
    if (path === '/products') for (const p of shop.products) await expect(page.getByRole('link', { name: p.name, exact: true })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 375) wide.push(`${path}: ${width}px`);
    const sources = await page.evaluate(() =>
      [...document.querySelectorAll('img[src], video[src], video source[src], video[poster], iframe[src]')].flatMap((el) => [el.getAttribute('src'), el.getAttribute('poster')]).filter((s): s is string => !!s),
    );
    for (const src of sources) {
      const url = new URL(src, page.url()).toString();
      if (checked.has(url)) continue;
      checked.add(url);
      const r = await request.get(url);
      if (r.status() !== 200) broken.push(`${path}: ${src} → ${r.status()}`);
    }
    if (/^\/course\/1(-[^?]*)?$/.test(path)) {
      await expectPreviewPlays(page, request);
      previewPlayed = true;
    }
  }
  expect(previewPlayed, 'the walk went through the English course (course 1)').toBe(true);
  expect(checked.size).toBeGreaterThan(10);
  expect(broken).toEqual([]);
  expect(wide).toEqual([]);
});

/** On the English course's page (course 1): its preview is the shop's own video, and the browser plays it. */
async function expectPreviewPlays(page: Page, request: APIRequestContext): Promise<void> {
  await page.getByTestId('watch-preview').click();
  const video = page.locator('video').first();
  await expect(video).toHaveAttribute('src', '/uploads/demo-lesson.mp4');
  const r = await request.get('/uploads/demo-lesson.mp4');
  expect(r.status()).toBe(200);
  expect(r.headers()['content-type']).toContain('video/mp4');
  // the browser can decode it (a real, tiny H.264 file)
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(1);
}
