// The browser tests run with reduced motion (playwright.config.ts): a spinning spinner made the
// browser draw a frame every 16 ms for as long as a payment waited (docs/decisions/0039). This
// spec checks both preferences on a real spinner, the pay button's while its order is on its way
// (the order held by the test): it spins for a buyer with no preference, and stands still, still
// shown and still announced as busy, for one who asks for reduced motion.
import { expect, freshStudent, loginFast, test } from './engine/fixtures';

for (const motion of ['no-preference', 'reduce'] as const) {
  test(`the pay button's spinner with prefers-reduced-motion: ${motion}`, async ({ browser, shop }) => {
    const context = await browser.newContext({ baseURL: shop.url, reducedMotion: motion });
    const page = await context.newPage();
    try {
      const user = await freshStudent(shop.db, 'motion');
      await loginFast(page, user.username);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/private/cart/order', async (route) => {
        await held;
        await route.abort('internetdisconnected');
      });
      await page.goto('/course/1-english-for-communication');
      const panel = page.getByTestId('purchase-panel');
      await panel.getByTestId('method-1').check();
      const submit = panel.getByTestId('checkout-submit');
      await submit.click();
      await expect(submit).toHaveAttribute('aria-busy', 'true');
      const spinner = submit.locator('.ui-spinner');
      await expect(spinner).toBeVisible();
      const running = () => spinner.evaluate((el) => el.getAnimations().filter((a) => a.playState === 'running').length);
      if (motion === 'reduce') expect(await running()).toBe(0);
      else await expect.poll(running).toBe(1);
      release();
      // the order that did not get through is said, and nothing is ordered
      await expect(submit).not.toHaveAttribute('aria-busy', 'true');
      expect((await shop.db.query('SELECT 1 FROM orders WHERE user_id = $1', [user.id])).rowCount).toBe(0);
    } finally {
      await context.close();
    }
  });
}
