/** Pieces the page maps share: starting a purchase, failing one call on the network, what the page shows at the ends. */
import { expect } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import { orderRead } from '../../../machines/models/fixtures';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import { specMessage } from '../lang';
import type { When } from '../paths';
import type { PathContext, StateCheck } from '../runner';
import { PAGE_LOAD, USER_ACTION } from '../waits';

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

/**
 * The realtime pushes never reach this page (socket.io's polling and WebSocket transports refused):
 * the page learns the payment only by reading the order (its poll, 'Done', a reload). Set before
 * the page opens. Used where a path needs the read to find the payment before any push could.
 */
export async function withoutPushes(ctx: PathContext): Promise<void> {
  await ctx.page.route(/\/socket\.io\//, (route) => route.abort('connectionrefused'));
  await ctx.page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
}

/** A QR machine's read by its poll (also the read on a resume): where a read can find the payment first. */
export const pollReads = (s: AnyMachineSnapshot) => s.matches({ awaitingScan: { poll: 'checking' } });

/** Labels of a path on which the order read finds the payment (withoutPushes is needed). */
export const READ_FINDS_PAYMENT = ['✓getOrder:approved', '✓getOrder:rejected', '✓getOrder:paidBeforeDone', '✓getOrder:rejectedBeforeDone'];

/** getOrder: GET /private/orders/{id}. */
export const GET_ORDER = /\/private\/orders\/\d+(\?.*)?$/;

/** The failure notice (domain/messages.ts PAYMENT_FAILED) in the path's language. */
export const failureNotice = (ctx: Pick<PathContext, 'lang'>) => specMessage(ctx.lang, 'PAYMENT_FAILED');

// Reaching either end is a navigation: bounded as a page load (scaled by E2E_WAIT_SCALE on a slower machine).
export const onThankYouPage: StateCheck = async ({ page }) => {
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: PAGE_LOAD.ms });
};

export const onOrderList: StateCheck = async ({ page }) => {
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: PAGE_LOAD.ms });
};

export const failureShown: StateCheck = async (ctx) => {
  await expect(ctx.page.getByTestId('notifications')).toContainText(failureNotice(ctx));
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

/**
 * A self-transition (the machine stays in its state: a refused file, a gateway error told) leaves
 * no new state to wait for: `marks` notes how often the trace has taken it before the action, and
 * `took` waits until the trace has taken it once more.
 */
const taken = (ctx: PathContext, key: string) => ctx.trace.records.filter((r) => r.t.includes(key)).length;
export function markTransition(ctx: PathContext, key: string): void {
  ctx.plan[`taken:${key}`] = String(taken(ctx, key));
}
export async function tookTransition(ctx: PathContext, key: string): Promise<void> {
  const before = Number(ctx.plan[`taken:${key}`] ?? 0);
  // the page handles the action at once (a check in the page, or a script's callback)
  await expect.poll(() => taken(ctx, key), { message: `the page takes ${key}`, timeout: USER_ACTION.ms }).toBeGreaterThan(before);
}

/**
 * The test's fault on the wire: the next request to `url` reaches the server, which does its work
 * and answers 200, and the page gets that answer with its result made unusable by `damage` (a
 * success without the link, the QR or the recorded payment the page needs). Neither the server
 * nor a provider answers so (their answers follow openapi.yaml); the page's branch for it is what
 * is walked: it must still tell the buyer and offer a way on.
 */
export async function damageOnce(ctx: PathContext, url: RegExp, damage: (body: Record<string, unknown>) => unknown): Promise<void> {
  await ctx.page.route(
    url,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: damage(body) });
    },
    { times: 1 },
  );
}
