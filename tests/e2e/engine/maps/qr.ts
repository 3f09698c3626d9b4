/**
 * What the QR page maps (SCB QR, and PromptPay by Omise and GB Prime Pay) share: the realtime push
 * of the order's status, the start (the page's clock installed for the QR's expiry, the page's
 * socket.io routed through the test where a path drops or refuses the pushes), the QR's expiry reached by moving the clock, the
 * scanning states, the shop rejecting meanwhile and the QR's references in the database.
 */
import { expect, type Locator, type Route } from '@playwright/test';
import { rejectInBackOffice } from '../db';
import { label } from '../lang';
import { orderOf, type PathContext, type StateCheck } from '../runner';
import { DB_POLL, PUSH, TRACE_POLL } from '../waits';
import { GET_ORDER, PUSH_ROUTED, READ_FINDS_PAYMENT, routePushes, signedInAgain, signIns, startWith } from './common';

/**
 * What the machine's watchOrderStatus sends: the order's status pushed over the realtime socket,
 * and the connection back after a drop (`resumed`: the order is read at once, as a push sent
 * meanwhile is not replayed).
 */
export const ORDER_STATUS_PUSHES = {
  watchOrderStatus: [
    { label: 'approved', event: { type: 'order.statusChanged', orderId: 501, payment_status: 'approved' } },
    { label: 'rejected', event: { type: 'order.statusChanged', orderId: 501, payment_status: 'rejected' } },
    { label: 'resumed', event: { type: 'order.pushesResumed' } },
  ],
};

/** Starts the payment; the QR's expiry is minutes to a day away: the page's clock is moved forward when the path needs it. */
export function startQr(methodId: number) {
  return async (ctx: PathContext): Promise<void> => {
    if (ctx.labels?.includes('⏱qrExpiry')) await ctx.page.clock.install();
    // the page's socket.io goes through the test where a path drops the pushes or refuses them from a step on
    if (ctx.labels?.some((l) => READ_FINDS_PAYMENT.includes(l) || PUSH_ROUTED.includes(l))) await routePushes(ctx);
    await startWith(methodId)(ctx);
  };
}

/** The shop rejects the payment in the back office (the path's plan remembers it). */
export async function shopRejects(ctx: PathContext): Promise<void> {
  ctx.plan.shop = 'reject';
  await rejectInBackOffice(ctx);
}

/**
 * The page's clock jumps past the QR's expiry; once the page shows the expiry, the clock is set
 * back to the real time, so a new QR (expiring by the server's clock) is not already expired by a
 * page clock a day ahead. A day's jump drops the page's socket, as a day asleep would (its
 * heartbeat timer fires): socket.io-client connects and signs in again by itself, and the step
 * ends once the server has accepted that sign-in, so a status push later on the path has the
 * buyer's room to go to (a push sent while the socket is away is not replayed).
 */
export function qrExpires(modal: (ctx: PathContext) => Locator) {
  return {
    act: async (ctx: PathContext) => {
      const before = signIns(ctx);
      await ctx.page.clock.fastForward('25:00:00');
      await expect(modal(ctx)).toContainText(label(ctx.lang, 'qrExpired'), { timeout: 20_000 });
      await ctx.page.clock.setSystemTime(new Date());
      await signedInAgain(ctx, before, "the page's socket.io, dropped by the day's jump, signed in again");
    },
  };
}

/** The machine's four scanning states (the poll waiting or reading, the push listening or not), each checked by `qrShown`. */
export function scanningStates(id: string, qrShown: StateCheck): Record<string, StateCheck> {
  return Object.fromEntries(
    ['listening', 'unavailable'].flatMap((push) => ['waiting', 'checking'].map((poll) => [`${id}.awaitingScan.poll.${poll}+${id}.awaitingScan.push.${push}`, qrShown])),
  );
}

/** The provider's reference of the order's latest QR. */
export async function latestRef(ctx: PathContext, provider: string): Promise<string> {
  const id = await orderOf(ctx);
  const r = await ctx.shop.db.query<{ provider_ref: string }>('SELECT provider_ref FROM payments WHERE order_id = $1 AND provider = $2 ORDER BY id DESC LIMIT 1', [id, provider]);
  return r.rows[0]!.provider_ref;
}

/**
 * Runs `act` (the bank app paying, the shop rejecting) with the page's order reads held on their
 * way until it is done: a read the 6-second poll starts meanwhile then finds what the act made,
 * not the order as it was a moment before (the poll's timer runs while the test arms the step).
 */
export function readsHeldDuring(act: (ctx: PathContext) => Promise<void>) {
  return async (ctx: PathContext): Promise<void> => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await gate;
      // a held read of a page that went is gone with it
      await route.fallback().catch(() => undefined);
    };
    await ctx.page.route(GET_ORDER, hold);
    try {
      await act(ctx);
    } finally {
      release();
      await ctx.page.unroute(GET_ORDER, hold).catch(() => undefined);
    }
  };
}

/** Waits until the order is approved in the database: a provider's webhook is applied after its sandbox has answered the bank app. */
export async function approvedInDb(ctx: PathContext): Promise<void> {
  const id = await orderOf(ctx);
  await expect
    .poll(async () => (await ctx.shop.db.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = $1', [id])).rows[0]?.payment_status, { message: 'the order is approved', timeout: PUSH.ms, intervals: DB_POLL })
    .toBe('approved');
}

const heldForResume = new WeakMap<PathContext, () => void>();

/**
 * For a read that follows a reload (`payment.resume → ✓getOrder:approved`), armed before the
 * reload: the old page's poll reads are held on their way until the page has reloaded, so the
 * payment (or rejection) the arm makes is found by the resumed machine's read, as planned, not by
 * a poll of the page about to go (which would end the machine there, never resumed). Call
 * `reloaded` once the reload is done.
 */
export async function holdReadsUntilReload(ctx: PathContext, label: string): Promise<void> {
  const labels = ctx.labels ?? [];
  if (labels[labels.indexOf(label) - 1] !== 'payment.resume') return;
  let open = false;
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  heldForResume.set(ctx, () => ((open = true), release()));
  await ctx.page.route(GET_ORDER, async (route) => {
    if (!open) await gate;
    // a held read of the page that went is gone with it
    await route.fallback().catch(() => undefined);
  });
}

export function reloaded(ctx: PathContext): void {
  heldForResume.get(ctx)?.();
}

/**
 * A step planned as the status push (`⇠watchOrderStatus:approved`/`rejected`): the page's order
 * reads are held from before the payment (or rejection) until machine `id` has handled the push,
 * so the push moves the page on, as planned. Without the hold the QR's own poll (every few seconds,
 * and due at once after the page's clock was moved for the QR's expiry) could find the payment
 * first: the same end state by another transition, which the runner refuses. The thank-you page's
 * read after the push goes through.
 */
export function pushDelivers(id: string, act: (ctx: PathContext) => Promise<void>) {
  return readsHeldDuring(async (ctx) => {
    const from = ctx.trace.records.length;
    await act(ctx);
    await expect
      .poll(() => ctx.trace.macrosteps(id).some((ms) => ms.at >= from && ms.event === 'order.statusChanged'), { message: `${id} handles the status push`, timeout: PUSH.ms, intervals: TRACE_POLL })
      .toBe(true);
  });
}
