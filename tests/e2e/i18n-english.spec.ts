// In Chromium: a layout-4 visitor who chose English buys by Omise card; every visible text
// node of the course page, the payment modal and the order list is English (no Thai letter) but
// the shop's own data (course, teacher, bank and form-label names the API sends); the same walk
// in Thai shows no English word but names and codes.
import type { Page } from '@playwright/test';
import { expect, test } from './engine/fixtures';
import { fillLayout4Visitor, uniqueEmail } from './support';

const THAI = /[\u0E00-\u0E7F]/u;

/** Every string in the JSON the app received: the shop's own data, shown as the shop wrote it. */
function recordShopTexts(page: Page): Set<string> {
  const texts = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') texts.add(v.trim());
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  page.on('response', async (r) => {
    if (!(r.headers()['content-type'] ?? '').includes('application/json') || r.status() >= 400) return;
    try {
      walk(await r.json());
    } catch {
      // not JSON after all
    }
  });
  return texts;
}

/** Visible text nodes inside `selector` (default: the whole page). */
async function visibleTexts(page: Page, selector = 'body'): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const root of document.querySelectorAll(sel)) {
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = tw.nextNode(); n; n = tw.nextNode()) {
        const el = n.parentElement;
        const text = (n.textContent ?? '').trim();
        if (!el || !text || el.closest('script,style,title,noscript')) continue;
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        if (style.visibility === 'hidden' || style.display === 'none' || box.width === 0 || box.height === 0) continue;
        out.push(text);
      }
    }
    return out;
  }, selector);
}

/** Thai texts on screen that are not the shop's own (a text node may also sit inside shop HTML). */
function foreignThai(texts: string[], shop: Set<string>): string[] {
  const own = [...shop].filter((s) => THAI.test(s));
  return texts.filter((t) => THAI.test(t) && t !== 'ไทย' && !own.some((o) => o.includes(t)) && !own.some((o) => t.includes(o) && t.replace(o, '').trim().match(THAI) === null));
}

test('in English, a layout-4 visitor buys by Omise card and reads no Thai but the shop\'s own names', async ({ page }) => {
  // the detector itself finds what it guards
  expect(foreignThai(['ชำระเงิน', 'Pay', 'ไทย'], new Set(['Jane']))).toEqual(['ชำระเงิน']);
  const shop = recordShopTexts(page);
  await page.goto('/course/5?lang=en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  const panel = page.getByTestId('purchase-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('method-8')).toBeVisible();
  // method names and plan terms come from the catalogue, not the server's Thai names
  await expect(panel.locator('label', { has: page.getByTestId('method-8') })).toHaveText('Omise credit card');
  expect(foreignThai(await visibleTexts(page), shop)).toEqual([]);

  // a language switch survives a reload (remembered), the address without ?lang= keeps English
  await page.goto('/course/5');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByTestId('sticky-register').click();
  await fillLayout4Visitor(panel, { firstname: 'Jane', lastname: 'Doe', email: uniqueEmail('en-visitor') }, 'en');
  await panel.getByTestId('method-8').check();
  expect(foreignThai(await visibleTexts(page), shop)).toEqual([]);
  await panel.getByTestId('checkout-submit').click();

  const modal = page.getByRole('dialog', { name: 'Pay by credit/debit card' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  expect(foreignThai(await visibleTexts(page, '[role="dialog"]'), shop)).toEqual([]);
  await modal.getByLabel(/Name on card/).fill('JANE DOE');
  await modal.getByLabel(/Card number/).fill('4111111111111111');
  await modal.getByLabel(/Expiry month/).fill('12');
  await modal.getByLabel(/Expiry year/).fill(String(new Date().getFullYear() + 2));
  await modal.getByLabel(/CVV/).fill('123');
  await modal.getByTestId('omise-pay').click();

  await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
  await page.getByTestId('3ds-pass').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(foreignThai(await visibleTexts(page), shop)).toEqual([]);

  await page.goto('/myaccount/student/order');
  const row = page.getByTestId('order-row').first();
  await expect(row).toHaveAttribute('data-status', 'approved');
  await expect(row).toContainText('Paid');
  await expect(row).toContainText('Omise credit card');
  expect(foreignThai(await visibleTexts(page), shop)).toEqual([]);
});

/** Latin words on screen that are neither the shop's own texts nor names and codes. */
const NAMES_AND_CODES = new Set(['PayPal', 'Omise', '2C2P', 'SCB', 'PromptPay', 'GB', 'Prime', 'Pay', 'PaySolutions', 'CVV', 'QR', 'MM', 'YYYY', 'THB', 'USD', 'English', '3-D', 'Secure', 'chulabook']);
function foreignEnglish(texts: string[], shop: Set<string>): string[] {
  const own = [...shop];
  return texts.filter((t) => {
    if (own.some((o) => o.includes(t))) return false;
    let rest = t;
    for (const o of own) if (o.length > 2 && rest.includes(o)) rest = rest.replace(o, '');
    const words = rest.match(/[A-Za-z][A-Za-z-]*/g) ?? [];
    return words.some((w) => !NAMES_AND_CODES.has(w));
  });
}

test('in Thai, the same walk to the payment modal shows no English but names and codes', async ({ page }) => {
  expect(foreignEnglish(['ชำระเงิน PayPal', 'ชำระเงิน Done', 'School (โรงเรียน)'], new Set(['School (โรงเรียน)']))).toEqual(['ชำระเงิน Done']);
  const shop = recordShopTexts(page);
  await page.goto('/course/5?lang=th');
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  const panel = page.getByTestId('purchase-panel');
  await expect(panel.getByTestId('method-8')).toBeVisible();
  expect(foreignEnglish(await visibleTexts(page), shop)).toEqual([]);
  await page.getByTestId('sticky-register').click();
  await fillLayout4Visitor(panel, { firstname: 'สมหญิง', lastname: 'ทดสอบ', email: uniqueEmail('th-visitor') });
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();
  const modal = page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  expect(foreignEnglish(await visibleTexts(page, '[role="dialog"]'), shop)).toEqual([]);
});

test('the header switch changes the page in place, is remembered, and the API answers in it', async ({ page }) => {
  await page.goto('/course/1-english-for-communication?lang=th');
  const panel = page.getByTestId('purchase-panel');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('รูปแบบราคา');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/(public|private|api)\//.test(new URL(r.url()).pathname)) asked.push(r.headers()['accept-language'] ?? '');
  });
  await page.getByTestId('lang-en').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Pricing');
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  // the loaders ran again, in English
  await expect.poll(() => asked.includes('en')).toBe(true);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Pricing');
});
