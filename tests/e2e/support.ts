import { expect, type Page } from '@playwright/test';

/** A tiny valid PNG (1x1) for slip uploads. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Logs in through the cart login panel (/cart): username, password, Enter. */
export async function login(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/cart');
  await page.getByLabel('ชื่อผู้ใช้').fill(username);
  await page.getByLabel('รหัสผ่าน').fill(password);
  await page.getByLabel('รหัสผ่าน').press('Enter');
  await expect(page.getByTestId('header-user')).toBeVisible();
}

export async function submitCheckout(page: Page): Promise<void> {
  const submit = page.getByTestId('checkout-submit');
  await expect(submit).toBeVisible();
  await submit.click();
}
