import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Pool } from 'pg';

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

const VISITOR_LABELS = {
  th: { lastname: /^นามสกุล/, email: /^อีเมล/, tel: /^เบอร์โทรศัพท์/, school: 'โรงเรียนทดสอบ' },
  en: { lastname: /^Last name/, email: /^E-mail/, tel: /^Phone/, school: 'Test school' },
};

/** The layout-4 registration fields of course 5 in the purchase panel: the visitor's name, e-mail and phone, and the shop's three custom labels. */
export async function fillLayout4Visitor(panel: Locator, who: { firstname: string; lastname: string; email: string }, lang: 'th' | 'en' = 'th'): Promise<void> {
  const labels = VISITOR_LABELS[lang];
  await panel.locator('input[name="firstname"]').fill(who.firstname);
  await panel.getByLabel(labels.lastname).fill(who.lastname);
  await panel.getByLabel(labels.email).fill(who.email);
  await panel.getByLabel(labels.tel).fill('0812345678');
  await panel.getByLabel(/School/).fill(labels.school);
  await panel.getByLabel(/Level/).selectOption({ index: 1 });
  await panel.getByRole('group', { name: /How did you find us/ }).getByRole('radio').first().check();
}

/** The shop's thank-you page switched on or off (site settings), once the server answers it so (its settings answer is cached until the database's change feed reaches it). */
export async function setThankYouPage(db: Pool, request: APIRequestContext, on: boolean): Promise<void> {
  await db.query(`UPDATE site_settings SET data = jsonb_set(data, '{is_thank_you_page}', $1::jsonb) WHERE id = 1`, [JSON.stringify(on)]);
  await expect
    .poll(async () => ((await (await request.get('/api/setting/site/into/1')).json()) as { data: { is_thank_you_page: boolean } }).data.is_thank_you_page, { timeout: 20_000 })
    .toBe(on);
}

/** A visitor on English (course 1) chooses the bank transfer and presses pay: the login/registration modal it opens. */
export async function payOpensLoginModal(page: Page): Promise<Locator> {
  await page.goto('/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  return page.getByRole('dialog', { name: /เข้าสู่ระบบ/ });
}
