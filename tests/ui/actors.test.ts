import { File as NodeFile } from 'node:buffer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createActor, fromPromise, setup, SimulatedClock, toPromise, type AnyActorLogic } from 'xstate';
import { cartActors, orderActors, paymentActors, realtimeActors, studentActors } from '../../src/api/actors';
import { ApiError } from '../../src/api/errors';
import { ATTEMPTS_BEFORE_UNAVAILABLE, closeRealtime, deliverOrderStatus, openRealtime, REALTIME_EVENTS, realtimeSignIn, SOCKET_OPTIONS } from '../../src/api/realtime';
import { createRealtimeConnection, RealtimeUnavailable } from '../../src/api/actors/realtime';
import { scbQrMachine } from '../../machines/payments/scb-qr.machine';
import { order, orderRead } from '../machines/models/fixtures';
import { sessionMachine } from '../../machines/session/session.machine';
import { orderWatchLogic } from '../../src/api/order-watch-logic';
import { selectWatchingOrders } from '../../machines/orders/order-watch.selectors';
import { selectRealtimeOnline } from '../../machines/session/session.selectors';
import { cartOwnerId, keepReturnLink, keepUserId, returnLink, visitorId } from '../../src/api/storage';
import { json, scriptFetch } from '../support/ui-fetch';

async function run<O, I>(logic: AnyActorLogic, input: I): Promise<O> {
  const actor = createActor(logic, { input });
  actor.start();
  return (await toPromise(actor)) as O;
}

/**
 * The runtime's own FormData and File (undici's) for the upload tests, as the browser's page uses the
 * browser's: jsdom's File is not one Node's fetch accepts (Node 24's undici refuses it).
 */
async function useRuntimeFormData(): Promise<void> {
  const RuntimeFormData = (await new Response(new URLSearchParams('a=1')).formData()).constructor;
  vi.stubGlobal('FormData', RuntimeFormData);
  vi.stubGlobal('File', NodeFile);
}

describe('actors built on the typed client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('createOrder sends the Idempotency-Key and the order, and answers the whole body', async () => {
    let seen: Request | null = null;
    scriptFetch(async (req) => {
      seen = req;
      return json({ success: true, orderId: 7, order_detail: { id: 7 } }, 201);
    });
    const out = await run<{ orderId: number }, unknown>(orderActors.createOrder, { idempotencyKey: 'k-1', body: { user_id: 3, course_id: [1], payment_method_id: 1 } });
    expect(out.orderId).toBe(7);
    const req = seen as unknown as Request;
    expect(req.method).toBe('POST');
    expect(new URL(req.url).pathname).toBe('/private/cart/order');
    expect(req.headers.get('Idempotency-Key')).toBe('k-1');
    expect(await req.json()).toEqual({ user_id: 3, course_id: [1], payment_method_id: 1 });
  });

  it('a 4xx becomes an ApiError with the envelope code, msg and result', async () => {
    scriptFetch(() => json({ success: false, error: { code: 'COUPON_NOT_AVAILABLE', msg: 'full', result: ['SAVE10'] } }, 422));
    const actor = createActor(orderActors.createOrder, { input: { idempotencyKey: 'k', body: {} as never } });
    actor.start();
    const error = await toPromise(actor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('COUPON_NOT_AVAILABLE');
    expect((error as ApiError).result).toEqual(['SAVE10']);
    expect((error as ApiError).status).toBe(422);
  });

  it('a legacy success:false with 200 is a failure too', async () => {
    scriptFetch(() => json({ success: false, error: { code: 'NOT_FOUND', msg: 'no coupon' } }));
    const actor = createActor(cartActors.getCouponByCouponCode, { input: { coupon_code: 'NOPE' } as never });
    actor.start();
    const error = await toPromise(actor).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('NOT_FOUND');
  });

  it('uploadFile posts one file in the multipart field imageinput', async () => {
    let form: FormData | null = null;
    let type = '';
    scriptFetch(async (req) => {
      type = req.headers.get('content-type') ?? '';
      form = await req.formData();
      return json({ success: true, fileName: ['a.png'] });
    });
    await useRuntimeFormData();
    const out = await run<{ fileName: string[] }, unknown>(studentActors.uploadFile, { imageinput: new File(['x'], 'slip.png', { type: 'image/png' }) });
    expect(out.fileName).toEqual(['a.png']);
    expect(((form as unknown as FormData).get('imageinput') as File).name).toBe('slip.png');
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect((form as unknown as FormData).has('imageinput')).toBe(true);
    expect([...(form as unknown as FormData).keys()]).toEqual(['imageinput']);
  });

  it('uploadFile as a registration visitor: 403 UPLOAD_TOKEN_REQUIRED -> gets the upload token -> sends the file again', async () => {
    const calls: string[] = [];
    let token = false;
    scriptFetch(async (req) => {
      const path = new URL(req.url).pathname;
      calls.push(`${req.method} ${path}`);
      if (path === '/public/upload/token') {
        token = true;
        return json({ success: true, expires_at: '2026-03-02T03:30:00.000Z' });
      }
      return token ? json({ success: true, fileName: ['p.png'] }) : json({ success: false, error: { code: 'UPLOAD_TOKEN_REQUIRED', msg: 'Uploads need a student login or the registration form (upload token)' } }, 403);
    });
    await useRuntimeFormData();
    const out = await run<{ fileName: string[] }, unknown>(studentActors.uploadFile, { imageinput: new File(['x'], 'p.png', { type: 'image/png' }) });
    expect(out.fileName).toEqual(['p.png']);
    expect(calls).toEqual(['POST /api/home/test_upload', 'POST /public/upload/token', 'POST /api/home/test_upload']);
  });

  it('capturePaypalOrder puts the PayPal id in the path and our order id in the body', async () => {
    let seen: Request | null = null;
    scriptFetch(async (req) => {
      seen = req;
      return json({ success: true, status: 'COMPLETED', order_token: 'tok' });
    });
    await run(paymentActors.capturePaypalOrder, { paypalOrderId: 'PP123', orderId: 9 });
    const req = seen as unknown as Request;
    expect(new URL(req.url).pathname).toBe('/api/paypal/orders/PP123/capture');
    expect(await req.json()).toEqual({ orderId: 9 });
  });

  it('a network failure is an ApiError NETWORK_ERROR', async () => {
    scriptFetch(() => {
      throw new TypeError('offline');
    });
    const actor = createActor(orderActors.getOrder, { input: { orderId: 1 } });
    actor.start();
    const error = await toPromise(actor).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('NETWORK_ERROR');
  });
});

describe('browser storage', () => {
  it('the visitor id is generated once and kept', () => {
    const first = visitorId();
    expect(first).toMatch(/^v_[0-9a-f]{16}$/);
    expect(visitorId()).toBe(first);
    expect(localStorage.getItem('visitor_id')).toBe(first);
    expect(cartOwnerId(null)).toBe(first);
    keepUserId(42);
    expect(cartOwnerId(42)).toBe('42');
  });

  it('keeps the page path as the return link, refusing other origins', () => {
    keepReturnLink('/course/12-english');
    expect(returnLink()).toBe('/course/12-english');
    keepReturnLink('//evil.example/x');
    expect(returnLink()).toBeNull();
  });
});

describe('realtime', () => {
  function fakeSocket() {
    const emitted: unknown[][] = [];
    const handlers = new Map<string, ((arg?: unknown) => void)[]>();
    const socket = {
      connected: false,
      /** socket.io-client's Socket#active: false once it will not try to connect again by itself. */
      active: true,
      on(name: string, fn: (arg?: unknown) => void) {
        handlers.set(name, [...(handlers.get(name) ?? []), fn]);
        return socket;
      },
      off(name: string, fn: (arg?: unknown) => void) {
        handlers.set(name, (handlers.get(name) ?? []).filter((f) => f !== fn));
        return socket;
      },
      emit(...args: unknown[]) {
        emitted.push(args);
        return socket;
      },
      disconnect: vi.fn(() => socket),
      fire(name: string, arg?: unknown) {
        for (const fn of handlers.get(name) ?? []) fn(arg);
      },
    };
    return { socket, emitted };
  }

  it('the session opens socket.io lazily on /socket.io with the reconnection defaults and signs in on every connect', async () => {
    const { socket, emitted } = fakeSocket();
    let options: unknown = null;
    const load = async () => ({ io: (opts: unknown) => ((options = opts), socket) }) as never;
    const session = createActor(
      sessionMachine.provide({ actors: { realtimeConnection: createRealtimeConnection(load) } }),
      { input: { user: { id: 42, role: 'student', role_id: 1, firstname: 'ก', lastname: 'ข', email: 'a@b.co', username: 'u', is_non_member: false } } },
    ).start();
    await waitFor(() => expect(options).not.toBeNull());
    expect(options).toMatchObject({ path: '/socket.io', reconnection: true, reconnectionAttempts: Infinity, reconnectionDelay: 1000, reconnectionDelayMax: 5000, randomizationFactor: 0.5, timeout: 20000 });
    expect(SOCKET_OPTIONS.path).toBe('/socket.io');
    socket.connected = true;
    socket.fire('connect');
    expect(emitted.map((args) => args.slice(0, 2))).toEqual([[REALTIME_EVENTS.signIn, { userId: 42 }]]);
    expect(selectRealtimeOnline(session.getSnapshot())).toBe(true);
    socket.fire('disconnect');
    socket.fire('connect');
    expect(emitted.length).toBe(2);

    // pushes from the server reach the watcher of that order only, as order.statusChanged
    const got: unknown[] = [];
    const parent = createActor(
      setup({ actors: { watchOrderStatus: realtimeActors.watchOrderStatus } }).createMachine({
        invoke: { src: 'watchOrderStatus', input: { orderId: 5 } },
        on: { '*': { actions: ({ event }) => got.push(event) } },
      }),
    );
    parent.start();
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 6, status: 'x', payment_status: 'approved' });
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 5, status: 'x', payment_status: 'approved' });
    expect(got).toEqual([{ type: 'order.statusChanged', orderId: 5, payment_status: 'approved' }]);
    parent.stop();
    deliverOrderStatus({ orderId: 5, payment_status: 'rejected' });
    expect(got.length).toBe(1);

    // logging out closes the connection
    session.send({ type: 'session.expired' });
    expect(socket.disconnect).toHaveBeenCalled();
  });

  /** A machine invoking the real watch for order 5: what it got, and the error it failed with. */
  function watching() {
    const got: unknown[] = [];
    let failed: unknown = null;
    const parent = createActor(
      setup({ actors: { watchOrderStatus: realtimeActors.watchOrderStatus } }).createMachine({
        initial: 'listening',
        states: {
          listening: { invoke: { src: 'watchOrderStatus', input: { orderId: 5 }, onError: { target: 'unavailable', actions: ({ event }) => (failed = event.error) } } },
          unavailable: {},
        },
        on: { 'order.statusChanged': { actions: ({ event }) => got.push(event) } },
      }),
    );
    parent.start();
    return { parent, got, failed: () => failed };
  }

  /** Connection attempts fail one short of giving up, a connect starts the count again, and they fail one short again. */
  function failOneShortTwice(socket: ReturnType<typeof fakeSocket>['socket'], refused: Error) {
    for (let i = 1; i < ATTEMPTS_BEFORE_UNAVAILABLE; i++) socket.fire('connect_error', refused);
    socket.fire('connect');
    for (let i = 1; i < ATTEMPTS_BEFORE_UNAVAILABLE; i++) socket.fire('connect_error', refused);
  }

  async function opened() {
    closeRealtime();
    const fake = fakeSocket();
    await openRealtime(async () => ({ io: () => fake.socket }) as never);
    return fake;
  }

  it(`the order's watch fails once ${ATTEMPTS_BEFORE_UNAVAILABLE} connection attempts fail in a row (a connect in between starts the count again), and not before`, async () => {
    const { socket } = await opened();
    const w = watching();
    const refused = new Error('xhr poll error');
    failOneShortTwice(socket, refused);
    expect(w.parent.getSnapshot().value).toBe('listening');
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 5, payment_status: 'approved' });
    expect(w.got).toEqual([{ type: 'order.statusChanged', orderId: 5, payment_status: 'approved' }]);
    socket.fire('connect_error', refused);
    expect(w.parent.getSnapshot().value).toBe('unavailable');
    expect(w.failed()).toBeInstanceOf(RealtimeUnavailable);
    expect(String((w.failed() as Error).message)).toContain('xhr poll error');
    // a push after it gave up reaches nobody, and a watch started now fails at once
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 5, payment_status: 'rejected' });
    expect(w.got.length).toBe(1);
    const late = watching();
    expect(late.parent.getSnapshot().value).toBe('unavailable');
    // connected again: a new watch listens
    socket.fire('connect');
    expect(watching().parent.getSnapshot().value).toBe('listening');
    closeRealtime();
  });

  it('a connection back after a drop, once the server accepted its sign-in, has the order read (order.pushesResumed) and the order list read again; the order list also reads at the first accepted sign-in (a payment machine watch has its own poll); a refused sign-in or one with no gap before it brings nothing', async () => {
    const { socket, emitted } = await opened();
    const events: unknown[] = [];
    const parent = createActor(
      setup({ actors: { watchOrderStatus: realtimeActors.watchOrderStatus } }).createMachine({
        invoke: { src: 'watchOrderStatus', input: { orderId: 5 } },
        on: { '*': { actions: ({ event }) => events.push(event) } },
      }),
    ).start();
    const list = watchingOrders();
    /** The server's answer to the latest sign-in (socket.io's acknowledgement). */
    const answer = (ok: boolean) => (emitted.at(-1)!.at(-1) as (a: { ok: boolean }) => void)({ ok });
    realtimeSignIn(7);
    expect(emitted.at(-1)!.slice(0, 2)).toEqual([REALTIME_EVENTS.signIn, { userId: 7 }]);
    // the list was read before the socket was in the user's room: what changed meanwhile is read
    answer(true);
    expect(events).toEqual([]);
    expect(list.reads()).toBe(1);
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    realtimeSignIn(7);
    answer(false);
    expect(events).toEqual([]);
    expect(list.reads()).toBe(1);
    realtimeSignIn(7);
    answer(true);
    expect(events).toEqual([{ type: 'order.pushesResumed' }]);
    expect(list.reads()).toBe(2);
    // once: a later sign-in with no drop in between brings nothing
    realtimeSignIn(7);
    answer(true);
    expect(events.length).toBe(1);
    expect(list.reads()).toBe(2);
    parent.stop();
    list.actor.stop();
    closeRealtime();
  });

  it('the watch fails when socket.io-client cannot be loaded, and waits while no socket is opened yet', async () => {
    closeRealtime();
    const w = watching();
    expect(w.parent.getSnapshot().value).toBe('listening');
    await expect(openRealtime(async () => Promise.reject(new Error('chunk failed')))).rejects.toThrow('chunk failed');
    expect(w.parent.getSnapshot().value).toBe('unavailable');
    closeRealtime();
  });

  /** The order list's watch (orderWatch with the real watchMyOrders): its state and how often the page read its orders. */
  function watchingOrders() {
    const clock = new SimulatedClock();
    let reads = 0;
    const actor = createActor(orderWatchLogic.provide({ actions: { ordersChanged: () => void (reads += 1) } }), { clock }).start();
    return { actor, clock, reads: () => reads };
  }

  it(`the order list's watch reads the orders on every push of any order, and once ${ATTEMPTS_BEFORE_UNAVAILABLE} connection attempts fail in a row it fails and the page reads its orders at once, then every 10 s`, async () => {
    const { socket } = await opened();
    const w = watchingOrders();
    const refused = new Error('xhr poll error');
    failOneShortTwice(socket, refused);
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 6, payment_status: 'approved' });
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 7, payment_status: 'rejected' });
    expect(w.actor.getSnapshot().value).toBe('watching');
    expect(selectWatchingOrders(w.actor.getSnapshot())).toBe(true);
    expect(w.reads()).toBe(2);
    // no timer reads the orders while the pushes may come
    w.clock.increment(60_000);
    expect(w.reads()).toBe(2);
    socket.fire('connect_error', refused);
    expect(w.actor.getSnapshot().value).toBe('polling');
    expect(selectWatchingOrders(w.actor.getSnapshot())).toBe(false);
    // read at once (a push may have been lost before the watch gave up), then on the interval
    expect(w.reads()).toBe(3);
    w.clock.increment(9_999);
    expect(w.reads()).toBe(3);
    w.clock.increment(1);
    expect(w.reads()).toBe(4);
    w.clock.increment(10_000);
    expect(w.reads()).toBe(5);
    // a push after it gave up reaches nobody; a watch started now fails at once
    socket.fire(REALTIME_EVENTS.orderStatus, { orderId: 6, payment_status: 'approved' });
    expect(w.reads()).toBe(5);
    const late = watchingOrders();
    expect(late.actor.getSnapshot().value).toBe('polling');
    expect(late.reads()).toBe(1);
    w.actor.stop();
    late.actor.stop();
    closeRealtime();
  });

  /**
   * Each watch the same way (src/api/actors/realtime.ts `pushesOf`), seen from its machine: the
   * state it waits in, the one it goes to once no push can come, and what that state does.
   */
  const WATCHES = [
    {
      name: "the order's watch",
      start: () => {
        const w = watching();
        return { value: () => w.parent.getSnapshot().value, stop: () => w.parent.stop(), gaveUp: () => expect(w.failed()).toBeInstanceOf(RealtimeUnavailable), later: () => {} };
      },
      waits: 'listening',
      fails: 'unavailable',
    },
    {
      name: "the order list's watch",
      start: () => {
        const w = watchingOrders();
        return {
          value: () => w.actor.getSnapshot().value,
          stop: () => w.actor.stop(),
          // the page read its orders at once, then reads them on the interval
          gaveUp: () => expect(w.reads()).toBe(1),
          later: () => {
            w.clock.increment(10_000);
            expect(w.reads()).toBe(2);
          },
        };
      },
      waits: 'watching',
      fails: 'polling',
    },
  ] as const;

  it.each(WATCHES)('$name fails at once when the server refuses or closes the connection, or refuses the sign-in', async ({ start, waits, fails }) => {
    for (const [event, arg] of [
      ['connect_error', new Error('not authorized')],
      ['disconnect', 'io server disconnect'],
    ] as const) {
      const { socket } = await opened();
      const w = start();
      socket.fire(event, arg);
      // still active: socket.io-client tries again by itself, the watch waits
      expect(w.value()).toBe(waits);
      socket.active = false;
      socket.fire(event, arg);
      expect(w.value(), event).toBe(fails);
      w.gaveUp();
      w.stop();
    }
    const { socket } = await opened();
    const w = start();
    socket.fire(REALTIME_EVENTS.signInError, { error: 'FORBIDDEN' });
    expect(w.value()).toBe(fails);
    w.later();
    w.stop();
    closeRealtime();
  });

  it("the order list's watch fails when socket.io-client cannot be loaded, and waits while no socket is opened yet", async () => {
    closeRealtime();
    const w = watchingOrders();
    w.clock.increment(60_000);
    expect(w.actor.getSnapshot().value).toBe('watching');
    expect(w.reads()).toBe(0);
    await expect(openRealtime(async () => Promise.reject(new Error('chunk failed')))).rejects.toThrow('chunk failed');
    expect(w.actor.getSnapshot().value).toBe('polling');
    expect(w.reads()).toBe(1);
    w.actor.stop();
    closeRealtime();
  });

  it('an SCB QR whose pushes are lost goes on without them: push.unavailable, the QR shown, the poll still reads the order', async () => {
    const { socket } = await opened();
    const clock = new SimulatedClock();
    const reads: unknown[] = [];
    const actor = createActor(
      scbQrMachine.provide({
        actors: {
          createScbQrCode: fromPromise(async () => ({ status: { code: 1000, description: 'Success' }, data: { qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 15, expires_at: new Date(Date.now() + 900_000).toISOString() } })),
          getOrder: fromPromise(async ({ input }) => (reads.push(input), orderRead('approved', 4))),
          watchOrderStatus: realtimeActors.watchOrderStatus,
        },
      }),
      { input: { order: order(4) }, clock },
    ).start();
    await waitFor(() => expect(actor.getSnapshot().matches({ awaitingScan: { push: 'listening', poll: 'waiting' } })).toBe(true));
    for (let i = 0; i < ATTEMPTS_BEFORE_UNAVAILABLE; i++) socket.fire('connect_error', new Error('websocket error'));
    expect(actor.getSnapshot().value).toEqual({ awaitingScan: { push: 'unavailable', poll: 'waiting' } });
    expect(reads).toEqual([]);
    clock.increment(6000);
    await waitFor(() => expect(actor.getSnapshot().value).toBe('paid'));
    expect(reads).toEqual([{ orderId: 501 }]);
    actor.stop();
    closeRealtime();
  });
});
