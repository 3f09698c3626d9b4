/** Cart actors (tag cart): carts, coupons, pricing plans, promotions, shipping fees, chulabook. */
import type { components } from '../../../generated/api';
import type { ClearCartRequest, CouponLookupRequest } from '../../../machines/shared/api';
import { api } from '../client';
import { operation } from './call';

type Schemas = components['schemas'];

export const cartActors = {
  getCartPublic: operation('getCartPublic', (input: { userId: string }, signal) => api.GET('/public/cart/{userId}', { params: { path: { userId: input.userId } }, signal })),
  saveCartPublic: operation('saveCartPublic', (input: { userId: string; cart: Schemas['CartSave'] }, signal) =>
    api.PUT('/public/cart/{userId}', { params: { path: { userId: input.userId } }, body: input.cart, signal }),
  ),
  getCartPrivate: operation('getCartPrivate', (_input: void, signal) => api.GET('/private/cart', { signal })),
  saveCartPrivate: operation('saveCartPrivate', (input: { cart: Schemas['CartSave'] }, signal) => api.PUT('/private/cart', { body: input.cart, signal })),
  getCouponByCouponCode: operation('getCouponByCouponCode', (input: CouponLookupRequest, signal) => api.POST('/public/cart/getCouponByCouponCode', { body: input, signal })),
  getAllCoupons: operation('getAllCoupons', (input: Schemas['CouponListRequest'], signal) => api.POST('/public/cart/getallcoupon', { body: input, signal })),
  getAllPricingPlans: operation('getAllPricingPlans', (input: Schemas['PricingPlanRequest'], signal) => api.POST('/public/cart/getallpriecingplan', { body: input, signal })),
  getAllPromotions: operation('getAllPromotions', (_input: void, signal) => api.GET('/public/cart/promotion/all', { signal })),
  clearCart: operation('clearCart', (input: ClearCartRequest, signal) => api.POST('/public/cart/deleteitem', { body: input, signal })),
  listShippingFees: operation('listShippingFees', (_input: void, signal) => api.GET('/public/shipping/fees', { signal })),
  sendCartToChulabook: operation('sendCartToChulabook', (input: Schemas['ChulabookCartRequest'], signal) => api.POST('/api/chulabook/cart', { body: input, signal })),
  getCartPaymentMethods: operation('getCartPaymentMethods', (_input: void, signal) => api.GET('/public/cart/payments/methods', { signal })),
};
