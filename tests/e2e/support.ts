import { expect, type Page } from '@playwright/test';

/** A tiny valid PNG (1x1) for slip uploads. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function submitCheckout(page: Page): Promise<void> {
  const submit = page.getByTestId('checkout-submit');
  await expect(submit).toBeVisible();
  await submit.click();
}
