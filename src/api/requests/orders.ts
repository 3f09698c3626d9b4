/** Order requests (tag orders). createOrder sends the Idempotency-Key made before the click. */
import type { ApproveOrderPaymentRequest, DeleteOrderRequest, OrderCreate, OrderedCourse, OrderedFacts, OrderIdBody } from '../../../machines/shared/api';
import { api } from '../client';
import { newUuid } from '../storage';
import { request } from '../request';

/** The order payload plus the key that makes a retry (double click, refresh, second tab) the same order. */
export interface CreateOrderInput {
  idempotencyKey: string;
  body: OrderCreate;
}

export const orderRequests = {
  createOrder: request('createOrder', (input: CreateOrderInput, signal) =>
    api.POST('/private/cart/order', { params: { header: { 'Idempotency-Key': input.idempotencyKey || newUuid() } }, body: input.body, signal }),
  ),
  deleteOrder: request('deleteOrder', (input: DeleteOrderRequest, signal) => api.POST('/public/cart/deleteorder', { body: input, signal })),
  listOrderedCourses: request('listOrderedCourses', (_input: void, signal) => api.GET('/private/cart/ordercourse', { signal })),
  listMyOrders: request('listMyOrders', (input: { limit?: number } | undefined, signal) => api.GET('/private/orders', { params: { query: input ?? {} }, signal })),
  getOrderByToken: request('getOrderByToken', (input: { orderToken: string }, signal) =>
    api.GET('/private/orders/token/{orderToken}', { params: { path: { orderToken: input.orderToken } }, signal }),
  ),
  /** The order's receipts, tax invoices and credit notes (its owner only). */
  listOrderDocuments: request('listOrderDocuments', (input: OrderIdBody, signal) =>
    api.GET('/private/orders/{orderId}/documents', { params: { path: { orderId: input.orderId } }, signal }),
  ),
  getOrder: request('getOrder', (input: OrderIdBody, signal) => api.GET('/private/orders/{orderId}', { params: { path: { orderId: input.orderId } }, signal })),
  approveOrderPayment: request('approveOrderPayment', (input: ApproveOrderPaymentRequest, signal) => api.POST('/private/orders/payment/approved', { body: input, signal })),
};

/**
 * What the buyer's ordered courses (listOrderedCourses: one row per course, its latest order; server/orders/status.ts)
 * say for buyability: the owned courses (approved), each course's latest order status and that
 * order. Read by the course page's loader (features/checkout/purchase-data) and again by the
 * checkout after the server refuses an order of the page's course (have_course). Here, beside the
 * request: both already load this module, and canBuy is not in the page's first load.
 */
export function orderedFacts(ordered: readonly Pick<OrderedCourse, 'courseID' | 'order_id' | 'status'>[]): OrderedFacts {
  return {
    ownedCourseIds: ordered.filter((c) => c.status === 'approved').map((c) => c.courseID),
    orderStatuses: Object.fromEntries(ordered.map((c) => [c.courseID, c.status])),
    orderIds: Object.fromEntries(ordered.map((c) => [c.courseID, c.order_id])),
  };
}

/** The buyer's ordered courses read again, as `orderedFacts` (the checkout's `readOrderedCourses`). */
export async function readOrderedFacts(signal?: AbortSignal): Promise<OrderedFacts> {
  return orderedFacts((await orderRequests.listOrderedCourses.call(undefined, signal)).data);
}
