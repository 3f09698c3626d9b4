import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './engine/fixtures';

/** Every page a buyer reaches from the home page: the lists, every course and every product. */
async function seededPages(request: APIRequestContext): Promise<string[]> {
  const courses = (await (await request.get('/public/courses')).json()).data as { link_path: string; course_type: string }[];
  const products = (await (await request.get('/public/product')).json()).data as { link_path: string }[];
  const coursePages = courses.filter((c) => c.course_type !== 'Product').map((c) => `/course/${c.link_path}`);
  // ?learn=true opens the preview playlist (the lesson videos).
  return ['/', '/products', ...coursePages, ...coursePages.map((p) => `${p}?learn=true`), ...products.map((p) => `/product/${p.link_path}`)];
}

// One walk over every seeded page (each page loaded once, to keep the suite's time down), at 375 px.
test('every seeded page: each <img>/<video>/<iframe> source answers 200, and it fits a 375 px screen (no sideways scroll)', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 375, height: 800 });
  const pages = await seededPages(request);
  expect(pages.length).toBeGreaterThan(10);
  const broken: string[] = [];
  const wide: string[] = [];
  const checked = new Set<string>();
  for (const path of [...pages, '/cart']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
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
  }
  expect(checked.size).toBeGreaterThan(10);
  expect(broken).toEqual([]);
  expect(wide).toEqual([]);
});

test('every course type and every product is reachable from the home page', async ({ page, request }) => {
  const courses = (await (await request.get('/public/courses')).json()).data as { name: string; course_type: string }[];
  const products = (await (await request.get('/public/product')).json()).data as { name: string }[];
  await page.goto('/');
  for (const c of courses) await expect(page.getByRole('link', { name: c.name, exact: true })).toBeVisible();
  const types = new Set(courses.map((c) => c.course_type));
  for (const type of ['Online', 'Flex', 'In-class', 'Private-Classroom', 'Live-Broadcast', 'Live-Room', 'Live-Room-Student-Camera']) expect(types).toContain(type);
  await page.getByTestId('products-link').click();
  for (const p of products) await expect(page.getByRole('link', { name: p.name, exact: true })).toBeVisible();
});

test("the English course's preview is the shop's own video, and it plays", async ({ page, request }) => {
  await page.goto('/course/1');
  await page.getByTestId('watch-preview').click();
  const video = page.locator('video').first();
  await expect(video).toHaveAttribute('src', '/uploads/demo-lesson.mp4');
  const r = await request.get('/uploads/demo-lesson.mp4');
  expect(r.status()).toBe(200);
  expect(r.headers()['content-type']).toContain('video/mp4');
  // the browser can decode it (a real, tiny H.264 file)
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(1);
});
