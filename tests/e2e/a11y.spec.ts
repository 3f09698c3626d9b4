/**
 * Accessible by default, measured: axe-core (its WCAG 2.0/2.1 A and AA rules) on every page a
 * buyer sees and with each kind of modal open, in Thai and English, at 1280 and 375 px, against
 * the real server. axe's source is put into the page by page.evaluate (Runtime.evaluate is not
 * subject to the page's CSP, which forbids inline scripts). Each test collects what axe finds on
 * all its pages and fails once, listing each finding (where, rule id, impact, help, targets).
 *
 * No rule is switched off. A violation fails; so does a rule axe could not decide ("incomplete",
 * e.g. aria-label on an element that may not carry one), with one exception: colour contrast of
 * text that something fixed lies over at that moment (axe's `bgOverlap`: the sticky bar of layout 4
 * or of a phone, a toast), which depends on the scroll position, not on the colours; the same
 * elements are measured when nothing covers them (the same cards on other pages and widths).
 * Sections out of sight are laid out for the audit (content-visibility: auto skips them, and
 * axe would leave their colours undecided).
 *
 * Two tests (a visitor; a logged-in student), one page each, to stay cheap in the e2e budget.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { expect, freshStudent, test } from './engine/fixtures';
import { openAs } from './scenarios-support';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const RULE_SETS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Finding {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; any: { data?: { messageKey?: string } | null }[] }[];
}

/** Runs axe on the document (or `within`); answers one readable line per finding, prefixed with `where`. */
async function audit(page: Page, where: string, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(
    async ({ runOnly, within }) => {
      type Result = { violations: Finding[]; incomplete: Finding[] };
      const axe = (window as unknown as { axe: { run: (context: unknown, options: object) => Promise<Result> } }).axe;
      // sections out of sight are not laid out (content-visibility: auto): laid out for the audit, or axe cannot read their colours
      for (const el of document.querySelectorAll<HTMLElement>('body *')) if (getComputedStyle(el).contentVisibility === 'auto') el.style.contentVisibility = 'visible';
      const result = await axe.run(within ?? document, { runOnly });
      const brief = (f: Finding, kind: string) => ({ kind, id: f.id, impact: f.impact ?? null, help: f.help, targets: f.nodes.map((n) => JSON.stringify(n.target)) });
      // colour contrast axe cannot decide because something fixed lies over the text (the sticky bar, a toast) is not a finding
      const undecided = result.incomplete
        .map((f) => (f.id === 'color-contrast' ? { ...f, nodes: f.nodes.filter((n) => !n.any.every((c) => c.data?.messageKey === 'bgOverlap')) } : f))
        .filter((f) => f.nodes.length > 0);
      return [...result.violations.map((f) => brief(f, 'violation')), ...undecided.map((f) => brief(f, 'undecided'))];
    },
    { runOnly: RULE_SETS, within },
  );
  return found.map((f) => `${where}: ${f.kind} ${f.id} (${f.impact ?? 'n/a'}) ${f.help} — ${f.targets.length} node(s): ${f.targets.slice(0, 6).join(', ')}`);
}

/** Opens `path`, waits for `ready`, audits. */
async function visit(page: Page, path: string, ready: (page: Page) => Locator, found: string[]): Promise<void> {
  await page.goto(path);
  await expect(ready(page)).toBeVisible();
  found.push(...(await audit(page, `${path} (${page.viewportSize()?.width ?? '?'} px)`)));
}

function report(found: string[]): string {
  return `axe found ${found.length} problem(s):\n${found.join('\n')}`;
}

const panel = (page: Page) => page.getByTestId('purchase-panel');

// Each test walks many pages and runs axe (a whole-page audit takes seconds) about twenty times:
// on a loaded 2-core machine that is more than the default two minutes, never a hang.
test.describe.configure({ timeout: 360_000 });

test('a11y: a visitor’s pages (course layouts, product, list, promotion, cart), form errors and the login modal, Thai and English, have no axe violations', async ({ page }) => {
  const found: string[] = [];
  for (const id of [2, 3, 7, 5]) await visit(page, `/course/${id}`, panel, found);

  // the audit itself can fail: an unnamed picture button is found
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<button id="a11y-canary"><img src="/x.png"></button>'));
  expect((await audit(page, 'canary', '#a11y-canary')).join('\n')).toMatch(/violation button-name/);
  await page.evaluate(() => document.getElementById('a11y-canary')?.remove());

  // layout 4's registration form sent empty: its errors
  await panel(page).getByTestId('checkout-submit').click();
  await expect(panel(page).locator('[aria-invalid="true"]').first()).toBeVisible();
  found.push(...(await audit(page, '/course/5 form errors')));

  await visit(page, '/product/12', panel, found);
  await visit(page, '/', (p) => p.getByTestId('course-list'), found);
  await visit(page, '/promotion/1', (p) => p.getByTestId('promotion-page'), found);
  await visit(page, '/cart', (p) => p.getByTestId('cart-login-page'), found);

  // the login modal, opened by pay on a layout 3 page: focus moves in, and back to the button on Escape
  await page.goto('/course/1');
  const submit = page.getByTestId('checkout-submit');
  await submit.click();
  const login = page.getByRole('dialog', { name: /เข้าสู่ระบบ/ });
  await expect(login.getByTestId('login-username')).toBeFocused();
  found.push(...(await audit(page, '/course/1 login modal')));
  // Shift+Tab from the first control wraps to the last one Tab can reach (the closed sign-up form's summary), not out of the dialog
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(login.locator('summary')).toBeFocused();
  // its sign-up form, opened
  await page.keyboard.press('Enter');
  await expect(login.locator('details')).toHaveAttribute('open', '');
  found.push(...(await audit(page, '/course/1 login modal, sign-up form open')));
  await page.keyboard.press('Escape');
  await expect(login).toHaveCount(0);
  await expect(submit).toBeFocused();

  // English (remembered from here on), on a phone
  await page.setViewportSize({ width: 375, height: 800 });
  for (const id of [2, 5]) await visit(page, `/course/${id}?lang=en`, panel, found);
  // reflow at 375 px: each plan's term sits under its name (not squeezed into a column of a few letters)
  const lefts = await panel(page).locator('.plan').evaluateAll((plans) => plans.map((p) => [p.querySelector('.plan__name'), p.querySelector('.plan__term')].map((e) => Math.round(e?.getBoundingClientRect().left ?? -1))));
  expect(lefts.length).toBeGreaterThan(0);
  for (const [name, term] of lefts) expect(term).toBe(name);
  await visit(page, '/?lang=en', (p) => p.getByTestId('course-list'), found);

  expect(found, report(found)).toEqual([]);
});

test('a11y: a student’s modals (person type, tax invoice, bank transfer, Omise card), thank-you, order list and cart have no axe violations', async ({ page, shop }) => {
  const found: string[] = [];
  const user = await freshStudent(shop.db, 'a11y');
  // Withholding is offered only to a juristic person: one whose tax invoice data is not on file
  // (no tax invoice asked) is asked to confirm the person type, then for the tax invoice data.
  await shop.db.query("UPDATE users SET tax_person_type = 'juristic_person' WHERE id = $1", [user.id]);
  await openAs(page, user.username, '/course/3-ux-ui-workshop');
  const p = panel(page);

  const withholding = p.getByTestId('withholding').getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' });
  await withholding.check();
  await p.getByTestId('checkout-submit').click();
  await expect(page.getByTestId('person-type-modal')).toBeVisible();
  found.push(...(await audit(page, 'person type modal')));
  // "not now": the question closes, nothing else is asked and nothing ordered; pay asks it again
  await page.getByTestId('person-type-modal').getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(page.getByTestId('person-type-modal')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect((await shop.db.query('SELECT id FROM orders WHERE user_id = $1', [user.id])).rows).toEqual([]);
  await p.getByTestId('checkout-submit').click();
  await expect(page.getByTestId('person-type-modal')).toBeVisible();
  await page.getByTestId('person-type-modal-confirm').click();
  const tax = page.getByRole('dialog', { name: 'ข้อมูลใบกำกับภาษี' });
  await expect(tax).toBeVisible();
  expect(await tax.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await tax.getByTestId('tax-submit').click(); // sent empty: its errors
  await expect(tax.locator('[aria-invalid="true"]').first()).toBeVisible();
  found.push(...(await audit(page, 'tax invoice modal with errors')));
  await tax.getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(tax).toHaveCount(0);
  await withholding.uncheck();

  // the bank transfer notice, left for later: the thank-you page
  await p.getByTestId('method-1').check();
  await p.getByTestId('checkout-submit').click();
  const notice = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(notice).toBeVisible();
  found.push(...(await audit(page, 'bank transfer modal')));
  await notice.getByTestId('notify-later').click();
  await expect(page.getByTestId('thankyou-title')).toBeVisible();
  found.push(...(await audit(page, 'thank-you page')));

  await visit(page, '/myaccount/student/order', (pg) => pg.getByTestId('orders-table'), found);

  // the cart page with a course and a coupon in it, then the Omise card form from there
  await page.goto('/');
  await page.getByRole('button', { name: 'เพิ่มลงรถเข็น: คอร์สภาษาอังกฤษเพื่อการสื่อสาร' }).click();
  await expect(page.getByTestId('add-to-cart-status-1')).toContainText('แล้ว');
  await page.goto('/cart');
  const cart = page.getByTestId('cart-checkout');
  await cart.getByTestId('coupon-input').fill('WELCOME10');
  await cart.getByTestId('coupon-input').press('Enter');
  await expect(cart.getByTestId('coupon-applied')).toContainText('WELCOME10');
  found.push(...(await audit(page, '/cart with a course and a coupon')));
  await cart.getByTestId('method-8').check();
  await cart.getByTestId('checkout-submit').click();
  await expect(page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' })).toBeVisible();
  found.push(...(await audit(page, 'Omise card modal')));
  // closed, the order waits in the order list: focus, lost with the cart page, is on the new page's main region
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('orders-page')).toBeVisible();
  await expect(page.locator('#main')).toBeFocused();

  expect(found, report(found)).toEqual([]);
});
