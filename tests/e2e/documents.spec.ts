/**
 * Documents in the browser: an order paid on the course page gets its receipt, linked from the
 * thank-you page (once the shop approves, without a reload) and from the order list; the PDF the
 * link downloads holds the receipt's words, its number and the order's total as text (pdftotext),
 * in Thai, and in English from the English page; the database holds one receipt for the order.
 */
import { expect, freshStudent, test } from './engine/fixtures';
import { approveByBackOffice, openAs, payByTransferAsShown, pdfText } from './scenarios-support';

const COURSE = '/course/1-english-for-communication';
const digits = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

test('a paid order links its receipt on the thank-you page and the order list; the PDF holds its number and total', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'docs1');
  await openAs(page, user.username, COURSE);
  await payByTransferAsShown(page, shop.db, user.id);
  // Not paid yet: no document.
  await expect(page.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval');
  await expect(page.getByTestId('order-documents')).toHaveCount(0);

  const { rows } = await shop.db.query<{ id: number; total: string }>('SELECT id, total FROM orders WHERE user_id = $1', [user.id]);
  const order = rows[0]!;
  await approveByBackOffice(page, order.id);

  // The push reads the order again: paid, and its receipt is linked (the wait is the realtime push).
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  const link = page.getByTestId('order-document');
  await expect(link).toHaveCount(1, { timeout: 20_000 });
  await expect(link).toHaveAttribute('data-kind', 'receipt');
  const docs = await shop.db.query<{ id: number; kind: string; number: string }>('SELECT id, kind, number FROM documents WHERE order_id = $1', [order.id]);
  expect(docs.rows.map((d) => d.kind)).toEqual(['receipt']);
  const number = docs.rows[0]!.number;
  await expect(link).toContainText(number);

  const th = await pdfText(page, (await link.getAttribute('href'))!);
  for (const s of ['ใบเสร็จรับเงิน', number, digits(Number(order.total))]) expect(th, s).toContain(s);

  // The order list links the same document; from an English page the PDF is English.
  await page.goto('/myaccount/student/order');
  const row = page.getByTestId('order-row').first();
  await expect(row.getByTestId('order-document')).toContainText(number);
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  await expect(row.getByTestId('order-document')).toHaveAttribute('href', /\?lang=en$/);
  const href = await row.getByTestId('order-document').getAttribute('href');
  const en = await pdfText(page, href!);
  for (const s of ['Receipt', number, digits(Number(order.total))]) expect(en, s).toContain(s);
});
