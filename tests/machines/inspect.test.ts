/** The Stately inspector sees a checkout run: a plain inspect callback, and the offline WebSocket inspector. */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { createInspect, inspectMode } from '../../src/inspect';
import { checkoutMachine, type CreateOrderInput } from '../../machines/checkout/checkout.machine';
import type { CreateOrderResponse } from '../../machines/shared/api';
import { cartInput } from './models/cart-fixtures';
import { student } from './models/fixtures';

const created: CreateOrderResponse = {
  success: true,
  orderId: 501,
  order_detail: {
    id: 501, payment_status: 'notYetReceived', price: 150000, discount: 0, withholding_price: 0, shipping_fee: 0, total_amount: 150000,
    currency_code: 'THB', coupon_list_code: [], order_course_list: [], order_token: 'tok-501', cancel_at: '2030-01-02T00:00:00Z',
  },
};

function runCheckout(inspect: (e: InspectionEvent) => void) {
  const logic = checkoutMachine.provide({ actors: { createOrder: fromPromise<CreateOrderResponse, CreateOrderInput>(async () => created) } });
  const actor = createActor(logic, {
    input: { cart: cartInput(), user: student, layout: 3, registrationOnPage: false, usernameRegistration: false, thankYouPage: true, slipRequired: false, taxSettings: {} },
    inspect,
  });
  actor.start();
  actor.send({ type: 'checkout.submit' });
  return actor;
}

describe('inspector wiring', () => {
  it('is on only in development, with ?inspect or VITE_INSPECT', () => {
    expect(inspectMode({ dev: false, search: '?inspect' })).toBeNull();
    expect(inspectMode({ dev: true, search: '' })).toBeNull();
    expect(inspectMode({ dev: true, search: '?inspect' })).toBe('browser');
    expect(inspectMode({ dev: true, search: '?inspect=ws' })).toBe('websocket');
    expect(inspectMode({ dev: true, search: '', flag: '1' })).toBe('browser');
    expect(inspectMode({ dev: true, search: '', flag: 'ws' })).toBe('websocket');
    expect(inspectMode({ dev: true, search: '?inspect=0', flag: '1' })).toBeNull();
    expect(createInspect({ dev: false, search: '?inspect' })).toBeUndefined();
  });

  it('a checkout run emits inspection events (plain inspect callback)', async () => {
    const events: InspectionEvent[] = [];
    const actor = runCheckout((e) => events.push(e));
    await new Promise((r) => setImmediate(r));
    const types = new Set(events.map((e) => e.type));
    expect([...types]).toEqual(expect.arrayContaining(['@xstate.actor', '@xstate.event', '@xstate.snapshot', '@xstate.microstep']));
    const root = events.filter((e) => e.actorRef === actor);
    expect(root.some((e) => e.type === '@xstate.event' && e.event.type === 'checkout.submit')).toBe(true);
    // Children are inspected with their root: the cart panel and the bank-transfer payment.
    const ids = new Set(events.filter((e) => e.type === '@xstate.actor').map((e) => (e.actorRef as { id?: string }).id));
    expect([...ids]).toEqual(expect.arrayContaining(['cart', 'taxGate', 'createOrder', 'bankTransfer']));
    expect(actor.getSnapshot().matches({ paying: 'bankTransfer' })).toBe(true);
    actor.stop();
  });

  describe('offline WebSocket inspector', () => {
    let server: WebSocketServer | undefined;
    afterEach(async () => {
      for (const c of server?.clients ?? []) c.terminate();
      await new Promise((r) => server?.close(() => r(undefined)) ?? r(undefined));
    });

    it('streams the checkout run to a local inspector server', async () => {
      server = new WebSocketServer({ port: 0 });
      await new Promise((r) => server!.once('listening', r));
      const port = (server.address() as { port: number }).port;
      const received: { type: string; event?: { type: string }; name?: string }[] = [];
      server.on('connection', (socket) => socket.on('message', (data) => received.push(JSON.parse(data.toString()))));

      const inspect = createInspect({ dev: true, search: '?inspect=ws', url: `ws://127.0.0.1:${port}` });
      expect(inspect).toBeDefined();
      const actor = runCheckout((e) => inspect!.next?.(e));
      const deadline = Date.now() + 5000;
      while (!received.some((e) => e.type === '@xstate.event' && e.event?.type === 'checkout.submit') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(received.some((e) => e.type === '@xstate.actor')).toBe(true);
      expect(received.some((e) => e.type === '@xstate.snapshot')).toBe(true);
      expect(received.some((e) => e.type === '@xstate.event' && e.event?.type === 'checkout.submit')).toBe(true);
      actor.stop();
      inspect!.stop();
    });
  });
});
