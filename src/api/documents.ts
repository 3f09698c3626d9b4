/** An order's receipts, tax invoices and credit notes (listOrderDocuments), read by the loaders of the order list and the thank-you page. */
import type { components } from '../../generated/api';
import { orderRequests } from './requests/orders';

export type OrderDocument = components['schemas']['OrderDocument'];
type Order = components['schemas']['Order'];

/**
 * The documents of the paid orders, by order id, read together. Only a paid order has documents
 * (a refund adds a credit note to it); an unpaid, cancelled or rejected one has none and is not
 * asked for. An order whose read fails shows none: the page still says what the order is.
 */
export async function loadDocuments(orders: readonly Order[], signal?: AbortSignal): Promise<Record<number, OrderDocument[]>> {
  const paid = orders.filter((o) => o.payment_status === 'approved');
  const lists = await Promise.all(paid.map((o) => orderRequests.listOrderDocuments.call({ orderId: o.id }, signal).then((b) => b.data, () => [])));
  return Object.fromEntries(paid.map((o, i) => [o.id, lists[i]!]));
}

export type OrderWithholding = components['schemas']['OrderWithholding'];

/**
 * The documents of the paid orders and the tax each buyer withheld with its certificate, by order
 * id, from the same reads (the order list offers the certificate's upload).
 */
export async function loadDocumentsAndWithholding(
  orders: readonly Order[],
  signal?: AbortSignal,
): Promise<{ documents: Record<number, OrderDocument[]>; withholding: Record<number, OrderWithholding | null> }> {
  const paid = orders.filter((o) => o.payment_status === 'approved');
  const bodies = await Promise.all(paid.map((o) => orderRequests.listOrderDocuments.call({ orderId: o.id }, signal).catch(() => null)));
  return {
    documents: Object.fromEntries(paid.map((o, i) => [o.id, bodies[i]?.data ?? []])),
    withholding: Object.fromEntries(paid.map((o, i) => [o.id, bodies[i]?.withholding ?? null])),
  };
}
