/** Pieces the page maps share: starting a purchase, failing one call on the network, what the page shows at the ends. */
import { expect, type WebSocketRoute } from '@playwright/test';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { order, orderRead } from '../../../machines/models/fixtures';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import { expectPaidBy } from '../db';
import { specMessage } from '../lang';
import { labelOf, type BrowserModel, type When } from '../paths';
import type { PageMap, PathContext, StateCheck } from '../runner';
import { PAGE_LOAD, PUSH, SERVER_ANSWER, TRACE_POLL, USER_ACTION } from '../waits';

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

/** The provider that pays by each method, as an order it paid shows it: payments.provider and payment_reports.payment. */
export const PAID_BY: Readonly<Record<number, { provider: string; report: string }>> = {
  2: { provider: 'paypal', report: 'Paypal' },
  4: { provider: 'scb', report: 'SCB' },
  8: { provider: 'omise', report: 'Omise' },
  9: { provider: 'omise', report: 'Omise' },
  10: { provider: '2c2p', report: '2C2P' },
  11: { provider: 'gbprime', report: 'GBPrimePay' },
  12: { provider: 'gbprime', report: 'GBPrimePay' },
  13: { provider: 'paysolutions', report: 'PaySolutions' },
};

/** The path's order is paid by `methodId`'s provider (db.ts expectPaidBy with its names). */
export async function expectPaidWith(ctx: PathContext, methodId: number): Promise<void> {
  const by = PAID_BY[methodId];
  if (!by) throw new Error(`no provider pays by method ${methodId}`);
  await expectPaidBy(ctx, by.provider, by.report);
}

/** A payment method's map as its file writes it: what the method's machine does besides starting on an order. */
export type MethodMapParts = Omit<PageMap, 'id' | 'methodId' | 'model'> & { model: Omit<BrowserModel, 'machine' | 'input'> & { input?: Record<string, unknown> } };

/**
 * The page map of one payment method's machine: keyed by the machine's id (the browser trace's
 * key), started on an order paid by `methodId` (with the machine's other `model.input`).
 */
export function methodMap(methodId: PaymentMethodId, machine: AnyStateMachine, parts: MethodMapParts): PageMap {
  const { input, ...model } = parts.model;
  return { ...parts, id: machine.id, methodId, model: { ...model, machine, input: { order: order(methodId), ...input } } };
}

/** The next request matching `url` fails on the network (the buyer's connection drops once). */
export async function failOnce(ctx: PathContext, url: RegExp): Promise<void> {
  await ctx.page.route(url, (route) => route.abort('internetdisconnected'), { times: 1 });
}

/**
 * The page's realtime socket (socket.io: its HTTP long-polling, then its WebSocket) routed through
 * the test, so that a path can, from a chosen step on:
 * - `dropPushes`: keep the connection but let no order status push through (a push lost on its
 *   way): the page learns the payment only by reading the order (its poll, 'Done', a reload);
 * - `refusePushes`: close the connection and refuse every new attempt on the network, as a
 *   network that stops letting socket.io through does: socket.io-client tries again and again, and
 *   the QR's watch gives up after its failed attempts (src/api/realtime.ts) — `push.unavailable`.
 *   A reload (`liftRefusal` first) finds the network letting it through again;
 * - `dropConnection`: close the connection once (socket.io-client connects and signs in again);
 * and can tell when the server accepted a sign-in (`signIns`, `signedInAgain`).
 * Set up before the page opens.
 */
interface PushRoute {
  drop: boolean;
  refused: boolean;
  open: Set<{ page: WebSocketRoute; server: WebSocketRoute }>;
  /** Sign-ins the server accepted: its acknowledgements (`43…`) on either transport. */
  signIns: number;
}
const pushRoutes = new WeakMap<PathContext, PushRoute>();
const SOCKET_IO = /\/socket\.io\//;

/** An engine.io packet carrying the server's order status push (`42["order.status",{…}]`). */
const isStatusPush = (packet: string) => packet.startsWith('42') && packet.includes('"order.status"');

/** The server's acknowledgements in a run of engine.io packets (the only acknowledged emit is the sign-in). */
const acks = (packets: string) => packets.split('\x1e').filter((packet) => packet.startsWith('43')).length;

export async function routePushes(ctx: PathContext): Promise<void> {
  const r: PushRoute = { drop: false, refused: false, open: new Set(), signIns: 0 };
  pushRoutes.set(ctx, r);
  await ctx.page.route(SOCKET_IO, async (route) => {
    if (r.refused) return route.abort('connectionrefused');
    if (route.request().method() !== 'GET') return route.fallback();
    // a long-poll's answer (held by the server up to its ping interval): its packets are separated
    // by \x1e; a dropped push becomes a no-op packet ('6')
    try {
      const response = await route.fetch({ timeout: 60_000 });
      const packets = (await response.text()).split('\x1e');
      r.signIns += acks(packets.join('\x1e'));
      const body = packets.map((packet) => (r.drop && isStatusPush(packet) ? '6' : packet)).join('\x1e');
      await route.fulfill({ response, body });
    } catch {
      // the page left meanwhile (its requests are gone with it)
      await route.abort().catch(() => undefined);
    }
  });
  await ctx.page.routeWebSocket(SOCKET_IO, (page) => {
    if (r.refused) return void page.close();
    const server = page.connectToServer();
    const pair = { page, server };
    r.open.add(pair);
    page.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (typeof m === 'string') r.signIns += acks(m);
      if (r.drop && typeof m === 'string' && isStatusPush(m)) return;
      page.send(m);
    });
    page.onClose(() => (r.open.delete(pair), server.close()));
    server.onClose(() => (r.open.delete(pair), page.close()));
  });
}

function routed(ctx: PathContext): PushRoute {
  const r = pushRoutes.get(ctx);
  if (!r) throw new Error("the page's socket is not routed on this path: its map's start must call routePushes");
  return r;
}

export async function dropPushes(ctx: PathContext): Promise<void> {
  routed(ctx).drop = true;
}

/** Arms a step on which the order read finds the payment: the pushes dropped first, then each of `acts` in turn. */
export function withPushesDropped(...acts: ((ctx: PathContext) => Promise<void>)[]) {
  return async (ctx: PathContext): Promise<void> => {
    await dropPushes(ctx);
    for (const act of acts) await act(ctx);
  };
}

/** Closes both sides of the page's open WebSocket: the page sees its connection drop and tries again. */
async function closeOpen(r: PushRoute): Promise<void> {
  const open = [...r.open];
  r.open.clear();
  for (const { page, server } of open) await Promise.all([page.close(), server.close()]);
}

export async function refusePushes(ctx: PathContext): Promise<void> {
  const r = routed(ctx);
  r.refused = true;
  // the page tries again, refused
  await closeOpen(r);
}

/**
 * The connection drops once, as a flaky network drops it: socket.io-client connects again by
 * itself and signs in again, and the watch, told the pushes are back (`order.pushesResumed`), has
 * the order read. Waits for the page's WebSocket first (socket.io starts on long-polling and
 * upgrades a moment later).
 */
export async function dropConnection(ctx: PathContext): Promise<void> {
  const r = routed(ctx);
  await expect.poll(() => r.open.size, { message: "the page's socket.io WebSocket is open", timeout: SERVER_ANSWER.ms, intervals: TRACE_POLL }).toBeGreaterThan(0);
  await closeOpen(r);
}

/** The network lets socket.io through again (before a reload). */
export function liftRefusal(ctx: PathContext): void {
  const r = pushRoutes.get(ctx);
  if (r) r.refused = false;
}

/** The sign-ins the server has accepted on this path's page so far. */
export const signIns = (ctx: PathContext): number => routed(ctx).signIns;

/** Waits until the server accepted a sign-in after the `before`-th: the page's socket is back in the buyer's room. */
export async function signedInAgain(ctx: PathContext, before: number, why: string): Promise<void> {
  await expect.poll(() => signIns(ctx) > before, { message: why, timeout: PUSH.ms, intervals: TRACE_POLL }).toBe(true);
}

/** Labels of a path that need the page's socket routed (routePushes), besides READ_FINDS_PAYMENT. */
export const PUSH_ROUTED = ['✗watchOrderStatus:refused', '⇠watchOrderStatus:resumed', '⏱qrExpiry'];

/**
 * The QR's watch fails when socket.io is refused (refusePushes): walked while the poll waits, as
 * the refusal's effect (socket.io-client's failed attempts, seconds) would otherwise race a read
 * under way.
 */
export const watchRefused = { error: [{ label: 'refused', in: (s: AnyMachineSnapshot) => s.matches({ awaitingScan: { push: 'listening', poll: 'waiting' } }) }] };

/**
 * Once the watch gave up, the poll's transitions are the same transitions as with the push
 * listening (the push and the poll are parallel regions, each transition keyed by its own node):
 * the walk takes the poll's read that finds the payment there, not every poll answer, Try again
 * and refresh a second time (about twenty more browser paths over the three QR methods).
 */
export const pushesLostFilter = (s: AnyMachineSnapshot, event: EventObject): boolean =>
  !s.matches({ awaitingScan: { push: 'unavailable' } }) || ['⏱pollInterval', '✓getOrder:approved'].includes(labelOf(event));

/**
 * `payment.abandon` is My orders in the popup of a method that sent the buyer away: shown once the
 * buyer is back and the read found no payment (or could not read), not while the page is leaving.
 */
export const backUnpaidOnly =
  (waiting: string) =>
  (s: AnyMachineSnapshot, event: EventObject): boolean =>
    event.type !== 'payment.abandon' || (s.matches(waiting) && (s.context as { returned?: unknown }).returned != null);

/**
 * The browser's back button from a provider's page to the course page. The wait listens for the
 * navigation itself (started before the click), not for the address afterwards: the restored flow
 * may move on at once (an order rejected meanwhile sends the buyer to My orders), so on a loaded
 * machine the course page's address can be gone before a check that polls for it looks.
 */
export async function backToCoursePage(ctx: PathContext): Promise<void> {
  await Promise.all([ctx.page.waitForURL(new RegExp(`${ctx.coursePath}$`), { waitUntil: 'commit', timeout: PAGE_LOAD.ms }), ctx.page.goBack()]);
}

/** My orders in the popup of a buyer back unpaid. */
export async function leaveForOrders(ctx: PathContext): Promise<void> {
  await ctx.page.getByTestId('redirect-leave').click();
}

/** A QR machine's read by its poll (also the read on a resume): where a read can find the payment first. */
export const pollReads = (s: AnyMachineSnapshot) => s.matches({ awaitingScan: { poll: 'checking' } });

/** Labels of a path on which the order read finds the payment (the pushes dropped first: dropPushes). */
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
