/**
 * A company buyer's tax invoice and withholding certificate in the browser. A juristic buyer (tax
 * data on file, head office 00000) withholds 3% on a VAT-inclusive course and pays by bank
 * transfer; the back office approves; the order list links the tax invoice, whose PDF text
 * (pdftotext) holds ใบกำกับภาษี, both tax ids, the VAT separated and the withheld and received
 * amounts exactly as the domain computes them; the buyer uploads the withholding certificate (a
 * refused file is not sent; a failed upload is retried; a second file replaces the first), the
 * back office marks it received, and the order list shows it received without a reload (the
 * realtime push). A natural person's paid order has a receipt only and is offered no upload.
 */
import { documentAmounts } from '../../domain/documents/amounts';
import { ADMIN_TOKEN, expect, freshStudent, loginFast, test } from './engine/fixtures';
import { approvedOrderRow, makeJuristic, onlyOrderOf, openAs, orderThroughApi, payByTransferAsShown, pdfText, serverError } from './scenarios-support';

const SITE_TAX = { is_enable_vat: true, vat_value: 7, is_enable_tax_invoice: true, is_enable_withholding_tax: true };
const SELLER_TAX_ID = '0105556012341'; // the demo shop's seller (server/db/seed.ts)
const BUYER_TAX_ID = '1101700203450'; // the demo company buyer's (student2's) tax data
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<< /Type /Catalog >>endobj\ntrailer<< /Root 1 0 R >>\n%%EOF\n');
const digits = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

test('a company buyer with 3% withholding: tax invoice PDF with exact amounts, certificate uploaded and received live', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'whtco');
  await makeJuristic(shop.db, user.id);
  await openAs(page, user.username, '/course/3-ux-ui-workshop');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('withholding').getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }).check();
  await expect(panel.getByTestId('withholding').getByRole('radio', { name: '3%' })).toBeChecked();
  const order = await payByTransferAsShown(page, shop.db, user.id);
  const vat = Number((await shop.db.query<{ vat_price: string }>('SELECT vat_price FROM orders WHERE id = $1', [order.id])).rows[0]!.vat_price);
  // The expectation from the domain's own functions on the order's stored figures.
  const expected = documentAmounts(
    {
      currency: 'THB',
      lines: order.lines.map((l) => ({ name: 'course', qty: l.qty, original_pricing_price: l.original_pricing_price, discount: l.discount, price: l.price })),
      price: order.price,
      discount: order.discount,
      shipping_fee: order.shipping_fee,
      vat_price: vat,
      withholding_price: order.withholding_price,
      withholding_percent: order.withholding_percent,
      total: order.total,
    },
    SITE_TAX,
  );
  // 3,500.00 VAT included = 3,271.03 + VAT 228.97; 3% of 3,271.03 = 98.13 withheld; 3,401.87 received.
  expect([expected.before_vat, expected.vat, expected.grand_total, expected.withholding, expected.received]).toEqual([327_103, 22_897, 350_000, 9_813, 340_187]);
  expect(expected.mismatches).toEqual([]);

  const row = await approvedOrderRow(page, order.id);
  const invoice = row.locator('[data-testid="order-document"][data-kind="tax_invoice"]');
  await expect(invoice).toHaveCount(1, { timeout: 20_000 });
  const text = await pdfText(page, (await invoice.getAttribute('href'))!);
  for (const s of ['ใบกำกับภาษี', SELLER_TAX_ID, BUYER_TAX_ID, '00000', digits(expected.before_vat), digits(expected.vat), digits(expected.grand_total), digits(expected.withholding), digits(expected.received)]) {
    expect(text, s).toContain(s);
  }

  // The certificate: offered; a file the rules refuse is not sent (the reason shown, still offered).
  const certificate = row.getByTestId('withholding-certificate');
  await expect(certificate).toHaveAttribute('data-phase', 'idle');
  const fileInput = certificate.getByTestId('withholding-file');
  const error = certificate.getByTestId('withholding-error');
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a certificate') });
  await expect(error).toBeVisible();
  const refusal = (await error.textContent())!.trim();
  expect(refusal).not.toBe('');
  await expect(certificate).toHaveAttribute('data-phase', 'idle');
  // The upload fails (the server answers 500): the reason and a retry; another refused file is
  // not sent; a good file is sent again and fails again; the retry, once the server answers, stores it.
  let refusedUploads = 0;
  const upload = `**/private/orders/${order.id}/withholding-certificate`;
  await page.route(upload, (route) => {
    refusedUploads += 1;
    return route.fulfill(serverError('e2e: upload refused'));
  });
  await fileInput.setInputFiles({ name: 'first.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(certificate).toHaveAttribute('data-phase', 'failed', { timeout: 20_000 });
  await expect(error).toContainText('อัปโหลดไม่สำเร็จ');
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a certificate') });
  await expect(error).toContainText(refusal);
  await expect(certificate).toHaveAttribute('data-phase', 'failed');
  expect(refusedUploads).toBe(1);
  await fileInput.setInputFiles({ name: 'first.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect.poll(() => refusedUploads).toBe(2);
  await expect(certificate).toHaveAttribute('data-phase', 'failed', { timeout: 20_000 });
  await expect(error).not.toContainText(refusal);
  await page.unroute(upload);
  expect((await shop.db.query('SELECT 1 FROM withholding_certificates WHERE order_id = $1', [order.id])).rowCount).toBe(0);
  await certificate.getByRole('button', { name: 'ลองอีกครั้ง' }).click();
  await expect(certificate).toHaveAttribute('data-phase', 'waiting', { timeout: 20_000 });
  await expect(certificate.getByTestId('withholding-waiting')).toContainText('first.pdf');
  // Waiting for the shop: a refused file leaves the one sent; another good file replaces it.
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a certificate') });
  await expect(error).toHaveText(refusal);
  await expect(certificate).toHaveAttribute('data-phase', 'waiting');
  await fileInput.setInputFiles({ name: '50tawi.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(certificate.getByTestId('withholding-waiting')).toContainText('50tawi.pdf', { timeout: 20_000 });
  await expect(certificate).toHaveAttribute('data-phase', 'waiting');

  // The back office sees it, downloads it and marks it received; the open page follows (no reload).
  const list = await page.request.get('/admin/api/withholding-certificates?status=submitted', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const mine = ((await list.json()) as { data: { id: number; order_id: number; file_url: string }[] }).data.find((c) => c.order_id === order.id)!;
  expect(mine).toBeTruthy();
  const file = await page.request.get(mine.file_url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(Buffer.from(await file.body()).equals(PDF)).toBe(true);
  const received = await page.request.post(`/admin/api/withholding-certificates/${mine.id}/receive`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { by: 'e2e' } });
  expect(received.ok(), await received.text()).toBe(true);
  await expect(certificate).toHaveAttribute('data-phase', 'received', { timeout: 20_000 });
  await expect(certificate.getByTestId('withholding-received')).toBeVisible();
  await expect(certificate.getByTestId('withholding-file')).toHaveCount(0);

  const docs = await shop.db.query<{ kind: string }>('SELECT kind FROM documents WHERE order_id = $1 ORDER BY kind', [order.id]);
  expect(docs.rows.map((d) => d.kind)).toEqual(['receipt', 'tax_invoice']);
  const certs = await shop.db.query<{ status: string; original_name: string; decided_by: string }>('SELECT status, original_name, decided_by FROM withholding_certificates WHERE order_id = $1 ORDER BY id', [order.id]);
  // the failed uploads stored nothing; the first file sent was replaced by the second, which the shop received
  expect(certs.rows).toEqual([
    { status: 'replaced', original_name: 'first.pdf', decided_by: null },
    { status: 'received', original_name: '50tawi.pdf', decided_by: 'e2e' },
  ]);
});

test('a natural person’s paid order: a receipt only, no withholding certificate offered', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'whtnp');
  // The order is this test's starting point, not its subject (the checkout is walked by the test
  // above and the engine): made through the API the page uses, for course 1's default plan.
  await loginFast(page, user.username);
  await orderThroughApi(page.request, shop.db, { userId: user.id, courseIds: [1], methodId: 1 });
  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ payment_method_id: 1, is_withholding: false, is_require_tax_invoice: false, total: 199_000 });
  const row = await approvedOrderRow(page, order.id);
  await expect(row.getByTestId('order-document')).toHaveCount(1, { timeout: 20_000 });
  await expect(row.getByTestId('order-document')).toHaveAttribute('data-kind', 'receipt');
  await expect(row.getByTestId('withholding-certificate')).toHaveCount(0);
  const docs = await shop.db.query<{ kind: string }>('SELECT kind FROM documents WHERE order_id = $1', [order.id]);
  expect(docs.rows.map((d) => d.kind)).toEqual(['receipt']);
  expect((await shop.db.query('SELECT 1 FROM withholding_certificates WHERE order_id = $1', [order.id])).rowCount).toBe(0);
});
