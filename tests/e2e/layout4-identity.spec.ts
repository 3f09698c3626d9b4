// Layout 4 (course 5: purchase without an account, embedded registration): a pasted card, one
// identity per e-mail, a failed submit at 375 px, person-type switching, and the way back in from
// the welcome mail read from the shop's outbox.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type Shop } from './engine/fixtures';
import { fillLayout4Visitor, uniqueEmail } from './support';
import { orderThroughApi } from './scenarios-support';
import { traceContext } from './engine/trace';

const COURSE = '/course/5';
const LABELS = '[{"id":1,"value":"โรงเรียนสาธิต"},{"id":2,"value":"ม.5"},{"id":5,"value":"เพื่อนแนะนำ"}]';

type Mail = { to: string; subject: string; text: string; tag: string };
function mailsTo(shop: Shop, email: string): Mail[] {
  return readdirSync(shop.outbox)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(shop.outbox, f), 'utf8')) as Mail)
    .filter((m) => m.to.toLowerCase() === email.toLowerCase());
}
const linkPath = (text: string) => /\/public\/auth\/link\/[A-Za-z0-9_-]{43}/u.exec(text)?.[0] ?? null;

async function countUsers(shop: Shop, email: string): Promise<number> {
  return (await shop.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email])).rows[0]!.n;
}

/** The visitor's registration fields on course 5 (Thai labels). */
async function fillVisitor(page: Page, email: string): Promise<void> {
  const panel = page.getByTestId('purchase-panel');
  await fillLayout4Visitor(panel, { firstname: 'สมหญิง', lastname: 'ทดสอบ', email });
}

test('a card number pasted as printed ("4242 4242 4242 4242") is kept whole and pays: one account, one order', async ({ page, shop }) => {
  const email = uniqueEmail('l4-card');
  await page.goto(COURSE);
  await fillVisitor(page, email);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();

  const number = page.getByTestId('card-number');
  await expect(number).toBeVisible({ timeout: 20_000 });
  await expect(number).toHaveAttribute('autocomplete', 'cc-number');
  await number.fill('4242 4242 4242 4242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  // typed with dashes: formatted as typed
  await number.fill('');
  await number.pressSequentially('4242-4242-4242-4242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await page.getByTestId('card-name').fill('SOMYING TEST');
  // a whole expiry pasted into the month field fills the year too
  const year = new Date().getFullYear() + 2;
  await page.getByTestId('card-month').fill(`12/${String(year).slice(2)}`);
  await expect(page.getByTestId('card-month')).toHaveValue('12');
  await expect(page.getByTestId('card-year')).toHaveValue(String(year));
  await page.getByTestId('card-cvv').fill('123');
  await page.getByTestId('omise-pay').click();

  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 30_000 });
  expect(await countUsers(shop, email)).toBe(1);
  const orders = await shop.db.query<{ status: string }>('SELECT o.status FROM orders o JOIN users u ON u.id = o.user_id WHERE lower(u.email) = lower($1)', [email]);
  expect(orders.rows).toEqual([{ status: 'approved' }]);
});

test('the same e-mail comes back: no second account; a sign-in link from the outbox signs the same buyer in, who is not sold the course again', async ({ page, shop, request }) => {
  const email = uniqueEmail('l4-again');
  // The first purchase (through the API, as the page makes it), approved by the shop.
  const secret = 'e2e-layout4-buyer-secret-000000000000000001';
  const reg = await request.post('/public/students/course-detail-page', {
    data: { firstname: 'สมหญิง', lastname: 'ทดสอบ', email, tel: '0812345678', password: secret, studentGroupKpi: 1, customLabel: LABELS, is_registration_layout_four: true },
  });
  expect(reg.status()).toBe(201);
  expect((await request.post('/public/auth/login/non-member', { data: { email, credential: secret } })).status()).toBe(200);
  const userId = (await shop.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email])).rows[0]!.id;
  await orderThroughApi(request, shop.db, { userId, courseIds: [5], methodId: 1 });
  await shop.db.query("UPDATE orders SET status = 'approved', payment_status = 'approved' WHERE user_id = $1", [userId]);

  // Another visit, another browser: the same e-mail in the registration.
  await page.goto(COURSE);
  await fillVisitor(page, email.toUpperCase());
  await page.getByTestId('purchase-panel').getByTestId('checkout-submit').click();
  const taken = page.getByTestId('email-taken');
  await expect(taken).toBeVisible({ timeout: 20_000 });
  await expect(taken).toHaveAttribute('data-account', 'buyer');
  expect(await countUsers(shop, email)).toBe(1);
  expect(mailsTo(shop, email).filter((m) => m.tag === 'registration')).toHaveLength(1);

  await taken.getByTestId('send-signin-link').click();
  await expect(page.getByTestId('signin-link-sent')).toBeVisible({ timeout: 20_000 });
  const mail = mailsTo(shop, email).find((m) => m.tag === 'signin-link');
  expect(mail).toBeDefined();
  const link = linkPath(mail!.text)!;
  await page.goto(link);
  await expect(page).toHaveURL(/\/course\/5[^?]*\?signedIn=1|\/course\/5-private-math-tutoring/u, { timeout: 20_000 });
  // The same buyer: the course is theirs, not sold again; the registration form is gone.
  await expect(page.getByTestId('buy-blocked')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('purchase-panel').locator('input[name="firstname"]')).toHaveCount(0);
  const orders = await shop.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE user_id = $1', [userId]);
  expect(orders.rows[0]!.n).toBe(1);
});

test('a failed submit at 375 px: focus on the first field in error, in view below the sticky bar; the summary lists every group', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(COURSE);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByLabel(/^อีเมล/).fill(uniqueEmail('l4-errors'));
  await panel.getByTestId('request-tax-invoice').check();
  await panel.getByTestId('checkout-submit').click();

  const first = panel.locator('input[name="firstname"]');
  await expect(first).toBeFocused();
  const bar = (await page.getByTestId('sticky-bar').boundingBox())!;
  const box = (await first.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
  expect(box.y + box.height).toBeLessThanOrEqual(740);
  const summary = page.getByTestId('error-summary');
  await expect(summary).toBeVisible();
  // contact info and tax invoice, each named
  await expect(summary.getByTestId('error-summary-group')).toHaveCount(2);

  // The sticky bar's links land below it at this width.
  await page.getByTestId('sticky-bar').getByRole('link').nth(2).click();
  // the smooth scroll ends with the section's heading just below the bar (polled, not a fixed wait)
  await expect
    .poll(async () => {
      const target = (await page.locator('#how-to-buy').boundingBox())!;
      const barNow = (await page.getByTestId('sticky-bar').boundingBox())!;
      return target.y >= barNow.y + barNow.height - 1;
    })
    .toBe(true);
});

test('person type: switching clears the tax fields, the tax id takes digits only; withholding asks for a juristic invoice before any account', async ({ page, shop }) => {
  await page.goto(COURSE);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('request-tax-invoice').check();
  const tax = panel.getByTestId('tax-part');
  await tax.getByRole('radio', { name: 'นิติบุคคล' }).check();
  await tax.locator('input[name="tax_name_one"]').fill('บริษัท ทดสอบ จำกัด');
  const id = tax.getByTestId('tax-id');
  await id.fill('12345abc');
  await expect(id).toHaveValue('12345');
  await id.fill('1-1017-00203-45-0');
  await expect(id).toHaveValue('1101700203450');
  await tax.getByRole('radio', { name: 'บุคคลธรรมดา' }).check();
  await expect(tax.locator('input[name="tax_name_one"]')).toHaveValue('');
  await expect(tax.getByTestId('tax-id')).toHaveValue('');
  await expect(tax.getByTestId('person-type-cleared')).toBeVisible();

  // Withholding with a natural person: refused on the page, no account made.
  const email = uniqueEmail('l4-withholding');
  await fillVisitor(page, email);
  await panel.getByTestId('withholding').getByRole('checkbox').first().check();
  await expect(panel.getByTestId('withholding-needs-juristic')).toBeVisible();
  await panel.getByTestId('checkout-submit').click();
  await expect(page.getByTestId('error-summary')).toBeVisible();
  await expect(tax.getByRole('radio', { name: 'บุคคลธรรมดา' })).toBeFocused();
  // the form stopped before registering: the summary and the focus are the machine's answer, no account was made
  expect(await countUsers(shop, email)).toBe(0);
});

test('the welcome mail (English) says how to get back in; its link opens the orders without a password; a password can be set later', async ({ page, shop, browser, machines }) => {
  const email = uniqueEmail('l4-welcome');
  await page.goto(`${COURSE}?lang=en`);
  const panel = page.getByTestId('purchase-panel');
  await fillLayout4Visitor(panel, { firstname: 'Jane', lastname: 'Doe', email }, 'en');
  await panel.getByTestId('checkout-submit').click();
  await expect(page.getByRole('dialog')).toBeVisible({ timeout: 20_000 });

  await expect.poll(() => mailsTo(shop, email).length, { timeout: 10_000 }).toBe(1);
  const welcome = mailsTo(shop, email)[0]!;
  expect(welcome.tag).toBe('registration');
  expect(welcome.subject).toMatch(/^Welcome to /u);
  expect(welcome.text).toContain('no password to remember');
  const link = linkPath(welcome.text)!;
  expect(link).not.toBeNull();

  // Later, another browser with no session.
  const other = await browser.newContext();
  // its machines (the set-password form's) are recorded with this test's
  await traceContext(other, machines);
  const back = await other.newPage();
  await back.goto(new URL(link, shop.url).toString());
  await expect(back).toHaveURL(/\/myaccount\/student\/order\?signedIn=1/u, { timeout: 20_000 });
  await expect(back.getByTestId('order-row').first()).toBeVisible({ timeout: 20_000 });

  // The buyer sets a password on the course page (its own form, outside the checkout's) and can log in with it.
  await back.goto(COURSE);
  const set = back.getByTestId('set-password');
  await set.locator('summary').click();
  const username = `jane_${Date.now().toString(36)}`;
  await set.locator('input[name="username"]').fill(username);
  await set.locator('input[name="password"]').fill('jane-pass-1');
  await set.getByRole('button').click();
  await expect(back.getByTestId('password-set')).toBeVisible({ timeout: 20_000 });
  await other.close();
  const login = await page.request.post('/public/auth/login', { data: { username, password: 'jane-pass-1' } });
  expect(login.status()).toBe(200);
});
