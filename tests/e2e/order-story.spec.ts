/**
 * What the buyer is told after paying is the whole story and stays true while the page is open:
 * the thank-you page and the order list show the items, the amounts, the method, the state and
 * what to do next; the shop's approval reaches an open page without a reload; a declined card is
 * told in the page's language (never the provider's text); the pay-again dialog and the 404 page
 * speak the page's language; the order list's links are big enough for a finger at 375 px.
 */
import { expect, freshStudent, test } from './engine/fixtures';
import { approveByBackOffice, openAs, payByOmiseCard, payByTransferAsShown } from './scenarios-support';

const COURSE = '/course/1-english-for-communication';

const digits = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const thb = (minor: number) => `฿${digits(minor)}`;

test('thank-you page: items, amounts, method, state and next step; the shop approving reaches it without a reload', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'story1');
  await openAs(page, user.username, COURSE);
  const order = await payByTransferAsShown(page, shop.db, user.id);
  expect(order.payment_status).toBe('pendingApproved');

  const summary = page.getByTestId('order-summary');
  await expect(summary.getByTestId('order-item')).toHaveCount(1);
  await expect(summary.getByTestId('order-item')).toContainText('ภาษาอังกฤษ');
  await expect(summary.getByTestId('order-amount-total')).toContainText(thb(Number(order.total)));
  await expect(summary.getByTestId('order-method')).toHaveText('โอนเงินผ่านธนาคาร');
  await expect(summary.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');
  await expect(page.getByTestId('order-next')).toHaveAttribute('data-state', 'awaitingApproval');

  // The shop approves in the back office: the open page says paid by itself (the realtime push).
  await approveByBackOffice(page, order.id);
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  await expect(summary.getByTestId('order-outcome')).toHaveAttribute('data-state', 'paid');
  await expect(page.getByTestId('order-next')).toHaveAttribute('data-state', 'paid');
  await expect(page.getByTestId('order-next').getByRole('link')).toHaveAttribute('href', '/course/1');
  const after = await shop.db.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = $1', [order.id]);
  expect(after.rows[0]!.payment_status).toBe('approved');
});

test('order list: the shop approving reaches the open list without a reload; one method is "payment method"; links a finger can hit at 375 px', async ({ page, shop }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const user = await freshStudent(shop.db, 'story2');
  await openAs(page, user.username, COURSE);
  await payByTransferAsShown(page, shop.db, user.id);

  await page.goto('/myaccount/student/order?lang=en');
  const { rows } = await shop.db.query<{ id: number }>('SELECT id FROM orders WHERE user_id = $1', [user.id]);
  const row = page.getByTestId('order-row').filter({ hasText: `#${rows[0]!.id}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');
  await expect(row).toContainText('Payment method');
  await expect(row).not.toContainText('Payment methods');
  await expect(row.getByTestId('order-amount-total')).toBeVisible();

  await approveByBackOffice(page, rows[0]!.id);
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });

  const all = page.getByTestId('orders-page').getByRole('link', { name: 'All courses' });
  const box = await all.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
});

test('order list read while socket.io is still connecting: the shop approves before the page\'s first sign-in; once signed in the page reads its orders and shows the approval, no reload', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'story6');
  await openAs(page, user.username, COURSE);
  await payByTransferAsShown(page, shop.db, user.id);
  // Every socket.io request of the next page waits until the test lets it go: the page reads its
  // orders, the shop approves, and only then does the socket connect and sign in. The approval's
  // push went to a room nobody was in and is not replayed; a hold is no failed attempt, so the
  // watch never gives up for its 10-s poll. The page learns of the approval only by reading its
  // orders once the server has accepted that first sign-in.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/socket\.io\//, async (route) => {
    await held;
    await route.fallback().catch(() => undefined);
  });
  await page.goto('/myaccount/student/order?lang=en');
  const { rows } = await shop.db.query<{ id: number }>('SELECT id FROM orders WHERE user_id = $1', [user.id]);
  const row = page.getByTestId('order-row').filter({ hasText: `#${rows[0]!.id}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');
  await approveByBackOffice(page, rows[0]!.id);
  release();
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  const after = await shop.db.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = $1', [rows[0]!.id]);
  expect(after.rows[0]!.payment_status).toBe('approved');
});

test('a declined Omise card is told in the page language, once, never in Omise words; pay again lists methods in the page language', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'story3');
  // Thai page
  await openAs(page, user.username, '/course/3-ux-ui-workshop');
  let panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();
  await payByOmiseCard(page, '4111111111140011');
  const toast = page.getByTestId('toast').filter({ hasText: 'ชำระเงินไม่สำเร็จ' });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  // read once while shown (a toast leaves after 4.5 s)
  const shown = await toast.first().textContent();
  expect(shown).toContain('(ยอดเงินในบัตรไม่เพียงพอ)');
  expect(shown).not.toMatch(/insufficient/i);
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });

  // English page: pay again on the same order; the method names are English, the amount as the page writes money.
  await page.goto('/myaccount/student/order?lang=en');
  const { rows } = await shop.db.query<{ id: number; total: string }>('SELECT id, total FROM orders WHERE user_id = $1', [user.id]);
  expect(rows).toHaveLength(1);
  const row = page.getByTestId('order-row').filter({ hasText: `#${rows[0]!.id}` });
  await row.getByTestId('order-pay').click();
  const dialog = page.getByTestId('order-pay-modal');
  await expect(dialog.getByRole('radio', { name: 'Bank transfer' })).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByTestId('order-pay-methods')).not.toContainText('โอนเงิน');
  // the amount as the English page writes money everywhere (THB 3,500.00), not the Thai ฿
  await expect(dialog).toContainText(new RegExp(`THB\\s${digits(Number(rows[0]!.total))}`));

  // Declined again, by card, on the English page: one toast, in English.
  await dialog.getByRole('radio', { name: 'Omise credit card' }).check();
  await dialog.getByTestId('order-pay-start').click();
  const card = page.getByRole('dialog').filter({ has: page.getByTestId('card-number') });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByTestId('card-name').fill('SOMCHAI JAIDEE');
  await card.getByTestId('card-number').fill('4111111111140011');
  await card.getByTestId('card-month').fill('12');
  await card.getByTestId('card-year').fill(String(new Date().getFullYear() + 2));
  await card.getByTestId('card-cvv').fill('123');
  await card.getByTestId('omise-pay').click();
  const english = page.getByTestId('toast').filter({ hasText: 'Insufficient funds on the card' });
  await expect(english).toHaveCount(1, { timeout: 20_000 });
  // one toast, in English: nothing in Thai, nothing in Omise's own words ("insufficient funds" alone)
  const all = await page.getByTestId('toast').allTextContents();
  expect(all.filter((x) => /ยอดเงิน|insufficient funds(?! on the card)/i.test(x))).toEqual([]);
  panel = page.getByTestId('purchase-panel');
  expect(await panel.count()).toBe(0);
  const attempts = await shop.db.query<{ n: string }>("SELECT count(*) AS n FROM payments WHERE order_id = $1 AND status = 'failed'", [rows[0]!.id]);
  expect(Number(attempts.rows[0]!.n)).toBe(2);
});

test('the 404 page speaks the page language', async ({ page }) => {
  const th = await page.goto('/course/99999');
  expect(th!.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 ไม่พบหน้าที่คุณต้องการ');
  const en = await page.goto('/course/99999?lang=en');
  expect(en!.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page not found !');
});

test('thank-you page with no realtime connection (socket.io refused on the network): it reads the order on its own and shows the approval without a reload', async ({ page, shop }) => {
  // Every socket.io request fails on the network: socket.io-client's attempts fail in a row and the
  // page's watch gives up (src/api/realtime.ts); orderWatch then reads the orders every 10 s.
  await page.route(/\/socket\.io\//, (route) => route.abort('internetdisconnected'));
  const user = await freshStudent(shop.db, 'story5');
  await openAs(page, user.username, COURSE);
  const order = await payByTransferAsShown(page, shop.db, user.id);
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'awaitingApproval');

  await approveByBackOffice(page, order.id);
  // no push can arrive: the page's own read (at most one 10-s interval after the watch gave up) finds it
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid', { timeout: 45_000 });
  await expect(page.getByTestId('order-next')).toHaveAttribute('data-state', 'paid');
  const after = await shop.db.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = $1', [order.id]);
  expect(after.rows[0]!.payment_status).toBe('approved');
});

test('order list whose connection drops while the shop approves: once socket.io signs in again the page reads its orders and shows the approval, no reload', async ({ page, shop }) => {
  // The page's socket.io goes through the test: its WebSocket can be closed, and its next
  // handshake (long-polling, before the upgrade) held, so the shop approves while the page has no
  // connection. The push of that approval reaches nobody and is not replayed; the page learns it
  // only because the watch, told the connection is back (`order.pushesResumed`), reads the orders.
  // Holding (not refusing) the handshake keeps socket.io-client from failing attempts in a row, so
  // the watch never gives up for its 10-s poll: without the read on rejoin the page would wait forever.
  let held: Promise<void> | null = null;
  let release = () => {};
  /** Sign-ins the server accepted (its acknowledgement, `43…`, on either transport). */
  let signedIn = 0;
  const acks = (packets: string) => packets.split('\x1e').filter((p) => p.startsWith('43')).length;
  await page.route(/\/socket\.io\//, async (route) => {
    if (held) await held;
    if (route.request().method() !== 'GET') return route.fallback().catch(() => undefined);
    try {
      // a long-poll's answer (held by the server up to its ping interval)
      const response = await route.fetch({ timeout: 60_000 });
      const body = await response.text();
      signedIn += acks(body);
      await route.fulfill({ response, body });
    } catch {
      await route.abort().catch(() => undefined); // the page left meanwhile
    }
  });
  // Each WebSocket the page opens, and whether socket.io moved onto it: engine.io's upgrade ends with
  // the page's '5' packet. Closed before that (while the probe runs), the WebSocket is only a failed
  // upgrade: the client stays on long-polling with that transport paused, no drop is seen, and it
  // learns of the loss only by its ping timeout (45 s), so the test must wait for the upgrade.
  const open = new Set<{ close: () => Promise<void>; upgraded: boolean }>();
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    const pair = { close: () => Promise.all([ws.close(), server.close()]).then(() => undefined), upgraded: false };
    open.add(pair);
    ws.onMessage((m) => {
      if (m === '5') pair.upgraded = true;
      server.send(m);
    });
    server.onMessage((m) => {
      if (typeof m === 'string') signedIn += acks(m);
      ws.send(m);
    });
    ws.onClose(() => (open.delete(pair), server.close()));
    server.onClose(() => (open.delete(pair), ws.close()));
  });
  const user = await freshStudent(shop.db, 'story6');
  await openAs(page, user.username, COURSE);
  const order = await payByTransferAsShown(page, shop.db, user.id);
  await page.goto('/myaccount/student/order?lang=en');
  signedIn = 0;
  const before = new Set(open); // the page before's WebSockets (closing, if not closed yet)
  const row = page.getByTestId('order-row').filter({ hasText: `#${order.id}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');
  // the list's connection is signed in and on its WebSocket, upgrade done (the pairs of the page before are closed with it)
  await expect.poll(() => signedIn > 0 && [...open].some((p) => p.upgraded && !before.has(p)), { message: "the list's socket.io is signed in on its WebSocket", timeout: 20_000 }).toBe(true);

  held = new Promise<void>((resolve) => (release = resolve));
  for (const pair of [...open]) await pair.close();
  await approveByBackOffice(page, order.id);
  const approved = await shop.db.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = $1', [order.id]);
  expect(approved.rows[0]!.payment_status).toBe('approved');
  // still shown as waiting: the push went nowhere
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');

  held = null;
  release();
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'paid', { timeout: 30_000 });
});
