/** Cart requests (tag cart): carts, coupons, pricing plans, promotions, shipping fees, chulabook. */
import type { components } from '../../../generated/api';
import type { ClearCartRequest, CouponLookupRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { request } from '../request';

type Schemas = components['schemas'];

export const cartRequests = {
  getCartPublic: request('getCartPublic', (input: { userId: string }, signal) => api.GET('/public/cart/{userId}', { params: { path: { userId: input.userId } }, signal })),
  saveCartPublic: request('saveCartPublic', (input: { userId: string; cart: Schemas['CartSave'] }, signal) =>
    api.PUT('/public/cart/{userId}', { params: { path: { userId: input.userId } }, body: input.cart, signal }),
  ),
  getCartPrivate: request('getCartPrivate', (_input: void, signal) => api.GET('/private/cart', { signal })),
  saveCartPrivate: request('saveCartPrivate', (input: { cart: Schemas['CartSave'] }, signal) => api.PUT('/private/cart', { body: input.cart, signal })),
  getCouponByCouponCode: request('getCouponByCouponCode', (input: CouponLookupRequest, signal) => api.POST('/public/cart/getCouponByCouponCode', { body: input, signal })),
  getAllCoupons: request('getAllCoupons', (input: Schemas['CouponListRequest'], signal) => api.POST('/public/cart/getallcoupon', { body: input, signal })),
  getAllPricingPlans: request('getAllPricingPlans', (input: Schemas['PricingPlanRequest'], signal) => api.POST('/public/cart/getallpriecingplan', { body: input, signal })),
  getAllPromotions: request('getAllPromotions', (_input: void, signal) => api.GET('/public/cart/promotion/all', { signal })),
  clearCart: request('clearCart', (input: ClearCartRequest, signal) => api.POST('/public/cart/deleteitem', { body: input, signal })),
  listShippingFees: request('listShippingFees', (_input: void, signal) => api.GET('/public/shipping/fees', { signal })),
  sendCartToChulabook: request('sendCartToChulabook', (input: Schemas['ChulabookCartRequest'], signal) => api.POST('/api/chulabook/cart', { body: input, signal })),
  getCartPaymentMethods: request('getCartPaymentMethods', (_input: void, signal) => api.GET('/public/cart/payments/methods', { signal })),
};
