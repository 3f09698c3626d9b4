/** Order requests (tag orders). createOrder sends the Idempotency-Key made before the click. */
import type { ApproveOrderPaymentRequest, DeleteOrderRequest, OrderCreate, OrderIdBody } from '../../../machines/shared/api';
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
