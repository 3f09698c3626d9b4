// Layout 4's sticky bar stays readable while a toast shows: at 375 px (where the bar wraps to
// ~158 px) and at 1280 px the toast region (always in the page, top right) starts below the bar's
// bottom edge. The region's place is the page's own CSS; to look at it, a toast-styled element is
// put into the real region and the page is photographed (.test-reports/, for a person to look at).
import { expect, test } from './engine/fixtures';

for (const width of [375, 1280]) {
  test(`a toast does not cover the sticky bar at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/course/5');
    const bar = page.getByTestId('sticky-bar');
    await expect(bar).toBeVisible({ timeout: 20_000 });
    // scrolled: the bar is stuck to the top of the viewport
    await page.mouse.wheel(0, 900);
    await expect.poll(async () => (await bar.boundingBox())!.y, { timeout: 10_000 }).toBeLessThanOrEqual(1);
    await page.getByTestId('notifications').evaluate((region) => {
      const toast = document.createElement('div');
      toast.className = 'ui-toast ui-toast--error';
      toast.setAttribute('data-testid', 'toast');
      toast.innerHTML = '<div class="ui-toast__text"><strong class="ui-toast__title">ผิดพลาด</strong><span>ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง</span></div>';
      region.appendChild(toast);
    });
    const b = (await bar.boundingBox())!;
    const t = (await page.getByTestId('toast').boundingBox())!;
    expect(t.y, `toast top ${t.y} below the bar's bottom ${b.y + b.height}`).toBeGreaterThanOrEqual(b.y + b.height);
    // the spec's place when the bar is short: 100 px from the top
    expect(t.y).toBeGreaterThanOrEqual(100);
    await page.screenshot({ path: `.test-reports/toast-sticky-${width}.png` });
  });
}
