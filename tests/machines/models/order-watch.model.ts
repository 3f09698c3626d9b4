import assert from 'node:assert/strict';
import { orderWatchMachine } from '../../../machines/orders/order-watch.machine';
import { selectWatchingOrders } from '../../../machines/orders/order-watch.selectors';
import { defineModel } from '../support/model';

export const orderWatchModel = defineModel({
  machine: orderWatchMachine,
  file: 'machines/orders/order-watch.machine.ts',
  userEvents: [],
  callbacks: { watchMyOrders: [{ type: 'order.statusChanged', orderId: 501, payment_status: 'approved' }, { type: 'order.pushesResumed' }] },
  outcomes: { watchMyOrders: { error: [new Error('realtime pushes unavailable: 3 connection attempts failed')] } },
  effects: ['ordersChanged'],
  accepts: () => [],
  check: (s, step) => {
    assert.equal(selectWatchingOrders(s), s.matches('watching'));
    assert.equal(step.scripts.isOpen('watchMyOrders'), s.matches('watching'), 'the pushes are listened to while watching');
    // without pushes the orders are read on a timer, and only then: one read pending, 10 s away
    const polls = step.clock.pending().filter((t) => t.eventType?.startsWith('xstate.after.ordersPollInterval.'));
    assert.deepEqual(
      polls.map((t) => t.delay),
      s.matches('polling') ? [10_000] : [],
      'polling reads the orders every 10 s; watching never does',
    );
    // every push reads the page again, once; so do the connection coming back after a drop and the
    // watch failing (a push may have been lost meanwhile), and every poll's interval
    const reads = step.event.type === 'order.statusChanged' || step.event.type === 'order.pushesResumed' || step.event.type === 'xstate.error.actor.watchMyOrders' || step.event.type.startsWith('xstate.after.ordersPollInterval.');
    assert.deepEqual(
      step.effects.map((e) => e.type),
      reads ? ['ordersChanged'] : [],
    );
  },
});
