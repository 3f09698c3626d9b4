import { expect, test } from './engine/fixtures';

test('keyboard only: the plan, the coupon and the pay button are reachable; the login modal traps and returns focus', async ({ page }) => {
  await page.goto('/course/5-private-math-tutoring');
  await expect(page.getByTestId('purchase-panel')).toBeVisible();
  await page.locator('body').focus();

  const reached = new Set<string>();
  for (let i = 0; i < 120; i += 1) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? '');
    if (id) reached.add(id);
    if (id === 'checkout-submit') break;
  }
  expect(reached.has('sticky-register')).toBe(true);
  expect(reached.has('coupon-input')).toBe(true);
  expect(reached.has('checkout-submit')).toBe(true);
  await expect(page.getByTestId('checkout-submit')).toBeFocused();

  // the focused control is visibly outlined
  const outline = await page.getByTestId('checkout-submit').evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});

test('keyboard only in layout 3: Enter on pay opens the login modal, Escape returns to the button', async ({ page }) => {
  await page.goto('/course/1');
  const submit = page.getByTestId('checkout-submit');
  await expect(submit).toBeVisible();
  await page.getByTestId('coupon-input').focus();
  for (let i = 0; i < 40; i += 1) {
    if (await submit.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  const modal = page.getByRole('dialog', { name: /เข้าสู่ระบบ/ });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await expect(modal.getByTestId('login-username')).toBeFocused();
  for (let i = 0; i < 15; i += 1) await page.keyboard.press('Tab');
  expect(await modal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(submit).toBeFocused();
});
