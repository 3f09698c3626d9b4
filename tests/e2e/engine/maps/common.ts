/** Pieces the page maps share: starting a purchase, failing one call on the network, what the page shows at the ends. */
import { expect } from '@playwright/test';
import { orderRead } from '../../../machines/models/fixtures';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import type { When } from '../paths';
import type { PathContext, StateCheck } from '../runner';

/** The buyer chooses the method on the course page and orders. */
export function startWith(methodId: number) {
  return async (ctx: PathContext) => {
    const { page } = ctx;
    await page.goto(ctx.coursePath);
    const panel = page.getByTestId('purchase-panel');
    await panel.getByTestId(`method-${methodId}`).check();
    await expect(panel.getByTestId(`method-${methodId}`)).toBeChecked();
    await panel.getByTestId('checkout-submit').click();
  };
}

/** The next request matching `url` fails on the network (the buyer's connection drops once). */
export async function failOnce(ctx: PathContext, url: RegExp): Promise<void> {
  await ctx.page.route(url, (route) => route.abort('internetdisconnected'), { times: 1 });
}

/** getOrder: GET /private/orders/{id}. */
export const GET_ORDER = /\/private\/orders\/\d+(\?.*)?$/;

export const FAILURE_NOTICE = 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง';

export const onThankYouPage: StateCheck = async ({ page }) => {
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
};

export const onOrderList: StateCheck = async ({ page }) => {
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
};

export const failureShown: StateCheck = async ({ page }) => {
  await expect(page.getByTestId('notifications')).toContainText(FAILURE_NOTICE);
};

/** getOrder answers as the graph needs them, by payment status. */
export function reads(methodId: PaymentMethodId) {
  return {
    approved: orderRead('approved', methodId),
    rejected: orderRead('rejected', methodId),
    pending: orderRead('pendingApproved', methodId),
    unpaid: orderRead('notYetReceived', methodId),
  };
}

/**
 * getOrder's answers when the page reads the order back (a return, a poll): approved, rejected,
 * still unpaid — the last two only where `after` holds, when given — or a network failure.
 */
export function orderReadOutcomes(methodId: PaymentMethodId, after?: When) {
  const read = reads(methodId);
  const at = after === undefined ? {} : { in: after };
  return {
    done: [
      { label: 'approved', output: read.approved },
      { label: 'rejected', output: read.rejected, ...at },
      { label: 'unpaid', output: read.unpaid, ...at },
    ],
    error: ['network'],
  };
}
