/**
 * Page map of PayPal (method 2): the PayPal popup (the sandbox checkout window) with Approve,
 * Approve-but-declined, Approve-but-pending and Cancel (what the machine's window watcher sends
 * back), network failures of our calls, and the modal's close button in every state the buyer
 * can see (the states that pass by themselves are closed in the UI tests).
 */
import { expect, type Page } from '@playwright/test';
import { paypalMachine } from '../../../../machines/payments/paypal.machine';
import { paypalModel } from '../../../machines/models/paypal.model';
import { ordersOfUser } from '../db';
import { label } from '../lang';
import type { PathContext } from '../runner';
import { expectPaidWith, failOnce, methodMap, onOrderList, onThankYouPage, startWith } from './common';

const o = paypalModel.outcomes!;
const modal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'paypalTitle') });
export const closeButton = (ctx: PathContext) => modal(ctx).getByRole('button', { name: label(ctx.lang, 'close'), exact: true });
const popups = new WeakMap<PathContext, Page>();

/** In the open PayPal window: Approve (or another sandbox choice by test id); the window closes. */
export async function approveWith(ctx: PathContext, testId: string): Promise<void> {
  const popup = popups.get(ctx);
  if (!popup) throw new Error('no PayPal window is open');
  // listened for before the click: the window may close before a listener set after it (then
  // the wait ran its whole 20 s for a close that had already happened)
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 20_000 }).then(
    () => undefined,
    () => undefined,
  );
  await popup.getByTestId(testId).click();
  await closed;
}

/** The PayPal button in our modal: the PayPal window opens. */
export async function openPaypalWindow(ctx: PathContext): Promise<void> {
  const popup = ctx.page.waitForEvent('popup', { timeout: 20_000 });
  await modal(ctx).getByTestId('paypal-button').click();
  popups.set(ctx, await popup);
}

export const paypalMap = methodMap(2, paypalMachine, {
  model: {
    userEvents: [{ type: 'paypal.createOrder' }, { type: 'paypal.close' }],
    callbacks: {
      watchApproval: [
        { label: 'approved', event: { type: 'paypal.approve', payerId: 'PAYER1' } },
        { label: 'cancelled', event: { type: 'paypal.cancel' } },
        // the window could not open (a popup blocker): the watcher says so at once
        { label: 'blocked', event: { type: 'paypal.error', message: 'popup blocked' } },
      ],
    },
    // A click on close while our server answers is a race in a browser: those are closed in the UI tests.
    filter: (s, event) => !(event.type === 'paypal.close' && (s.matches('creatingPaypalOrder') || s.matches('capturing') || s.matches('failure'))),
    outcomes: {
      createPaypalOrder: { done: [{ label: 'ok', output: o.createPaypalOrder!.done![0] }], error: ['network'] },
      capturePaypalOrder: {
        done: [
          { label: 'completed', output: o.capturePaypalOrder!.done![0] },
          { label: 'pending', output: o.capturePaypalOrder!.done![1] },
        ],
        // declined by the card, or refused by PayPal (the sandbox's buttons), or the capture call lost on the network
        error: [{ label: 'declined', error: o.capturePaypalOrder!.error![0] }, { label: 'refused', error: o.capturePaypalOrder!.error![1] }, 'network'],
      },
      deleteOrder: { done: [{ label: 'ok', output: o.deleteOrder!.done![0] }], error: ['network'] },
    },
  },
  start: async (ctx) => {
    // a popup blocker: window.open answers null, as a blocked window does
    if (ctx.labels?.includes('⇠watchApproval:blocked')) await ctx.page.addInitScript(() => void (window.open = () => null));
    await startWith(2)(ctx);
  },
  states: {
    'paypal.onPending': async (ctx, step) => {
      await expect(modal(ctx).getByTestId('paypal-button')).toBeEnabled({ timeout: 20_000 });
      await expect(closeButton(ctx)).toBeVisible();
      // back after a decline or a cancelled window: the reason in the modal, and another way on
      const problem = step.label === '✗capturePaypalOrder:declined' ? 'declined' : step.label === '⇠watchApproval:cancelled' ? 'cancelled' : null;
      if (problem) {
        await expect(modal(ctx).getByTestId('paypal-problem')).toHaveAttribute('data-problem', problem);
        await expect(modal(ctx).getByTestId('paypal-other-method')).toBeVisible();
      }
    },
    'paypal.creatingPaypalOrder': 'passing',
    'paypal.awaitingApproval': 'passing',
    'paypal.capturing': 'passing',
    'paypal.failure': 'passing',
    'paypal.success': onThankYouPage,
    // the order is deleted and the buyer is back on the course page with PayPal still chosen
    'paypal.orderDeleted': async ({ page }) => {
      await expect(page.getByTestId('purchase-panel').getByTestId('method-2')).toBeChecked();
    },
    // PayPal unreachable: the reason, the PayPal button to try again, nothing left Processing
    'paypal.buttonError': async (ctx) => {
      await expect(modal(ctx).getByTestId('paypal-problem')).toHaveAttribute('data-problem', 'unreachable', { timeout: 20_000 });
      await expect(modal(ctx).getByTestId('paypal-button')).toBeEnabled();
      await expect(modal(ctx).getByTestId('paypal-button')).not.toHaveAttribute('aria-busy', 'true');
    },
    // the capture got no answer: it may have paid; the modal says so and leads to the order list
    'paypal.captureUnconfirmed': async (ctx) => {
      await expect(modal(ctx).getByTestId('paypal-problem')).toHaveAttribute('data-problem', 'unconfirmed', { timeout: 20_000 });
      await expect(modal(ctx).getByTestId('paypal-button')).toHaveCount(0);
      await expect(modal(ctx).getByTestId('paypal-orders')).toBeVisible();
    },
    // closed by the buyer: the order list, where the order stays payable by any method
    'paypal.closed': onOrderList,
    // PayPal left the capture PENDING: the modal says so; the order is kept, awaiting payment
    'paypal.capturePending': async (ctx) => {
      await expect(modal(ctx).getByTestId('paypal-capture-pending')).toBeVisible({ timeout: 20_000 });
    },
    // handed over to PayPal's review: the page that ends a payment shows the order awaiting payment
    'paypal.handedOver': async ({ page }) => {
      await expect(page).toHaveURL(/\/thankyou\?orderId=|\/myaccount\/student\/order/, { timeout: 20_000 });
    },
  },
  events: {
    'paypal.createOrder': {
      act: async (ctx) => {
        if (ctx.labels?.includes('⇠watchApproval:blocked')) await modal(ctx).getByTestId('paypal-button').click();
        else await openPaypalWindow(ctx);
      },
    },
    '⇠watchApproval:approved': { act: (ctx) => approveWith(ctx, ctx.plan.paypal ?? 'pp-approve') },
    '⇠watchApproval:cancelled': { act: (ctx) => approveWith(ctx, 'pp-cancel') },
    // sent by the page's window watcher itself when the window could not open
    '⇠watchApproval:blocked': {},
    // the modal's own close button (the same in every state)
    'paypal.close': { act: (ctx) => closeButton(ctx).click() },
    '✓createPaypalOrder:ok': {},
    '✗createPaypalOrder:network': { arm: (ctx) => failOnce(ctx, /\/api\/paypal\/orders$/) },
    '✓capturePaypalOrder:completed': { arm: async (ctx) => void (ctx.plan.paypal = 'pp-approve') },
    '✓capturePaypalOrder:pending': { arm: async (ctx) => void (ctx.plan.paypal = 'pp-approve-pending') },
    '✗capturePaypalOrder:declined': { arm: async (ctx) => void (ctx.plan.paypal = 'pp-approve-declined') },
    '✗capturePaypalOrder:refused': { arm: async (ctx) => void (ctx.plan.paypal = 'pp-approve-refused') },
    '✗capturePaypalOrder:network': {
      arm: async (ctx) => {
        ctx.plan.paypal = 'pp-approve';
        await failOnce(ctx, /\/api\/paypal\/orders\/[^/]+\/capture$/);
      },
    },
    '✓deleteOrder:ok': {},
    '✗deleteOrder:network': { arm: (ctx) => failOnce(ctx, /\/public\/cart\/deleteorder$/) },
  },
  db: {
    '"success"': (ctx) => expectPaidWith(ctx, 2),
    // the failed order is deleted (is_deleted) or, when the delete failed, left unpaid
    '"orderDeleted"': async (ctx) => {
      expect(await ordersOfUser(ctx)).toBe(1);
      const r = await ctx.shop.db.query<{ is_deleted: boolean; payment_status: string }>('SELECT is_deleted, payment_status FROM orders WHERE user_id = $1', [ctx.user.id]);
      expect(r.rows[0]!.payment_status).not.toBe('approved');
      expect(r.rows[0]!.is_deleted).toBe(!ctx.labels?.includes('✗deleteOrder:network'));
    },
    // a capture PayPal left pending: the order is not deleted and not paid; its attempt is open
    '"handedOver"': async (ctx) => {
      expect(await ordersOfUser(ctx)).toBe(1);
      const r = await ctx.shop.db.query<{ is_deleted: boolean; payment_status: string }>('SELECT is_deleted, payment_status FROM orders WHERE user_id = $1', [ctx.user.id]);
      expect(r.rows[0]).toEqual({ is_deleted: false, payment_status: 'notYetReceived' });
      const p = await ctx.shop.db.query<{ status: string }>("SELECT p.status FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = $1 AND p.provider = 'paypal'", [ctx.user.id]);
      expect(p.rows.map((x) => x.status)).toEqual(['pending']);
    },
    // closed: the one order is kept (never deleted); paid only when a capture reached PayPal before the buyer closed
    '"closed"': async (ctx) => {
      const r = await ctx.shop.db.query<{ payment_status: string; is_deleted: boolean }>('SELECT payment_status, is_deleted FROM orders WHERE user_id = $1', [ctx.user.id]);
      expect(r.rows.map((x) => x.is_deleted)).toEqual([false]);
      const captured = ctx.labels?.includes('✗capturePaypalOrder:network');
      if (!captured) expect(r.rows[0]!.payment_status).toBe('notYetReceived');
    },
  },
});
