/**
 * The origin-bank options of a transfer's notice (tag payments): the one payment request the pages'
 * loaders make (src/api/bank-codes.ts). A module of its own so that a page's first load does not
 * carry the payment requests (./payments.ts, which includes it); those come with the checkout.
 */
import { api } from '../client';
import { request } from '../request';

export const bankCodeRequests = {
  getBankCodeOptions: request('getBankCodeOptions', (_input: void, signal) => api.GET('/api/payments/methods/banktreansfer', { signal })),
};
