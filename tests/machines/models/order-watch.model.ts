import assert from 'node:assert/strict';
import { orderWatchMachine } from '../../../machines/orders/order-watch.machine';
import { selectWatchingOrders } from '../../../machines/orders/order-watch.selectors';
import { defineModel } from '../support/model';

export const orderWatchModel = defineModel({
  machine: orderWatchMachine,
  file: 'machines/orders/order-watch.machine.ts',
  userEvents: [],
  callbacks: { watchMyOrders: [{ type: 'order.statusChanged', orderId: 501, payment_status: 'approved' }] },
  outcomes: { watchMyOrders: { error: [new Error('socket closed')] } },
  effects: ['ordersChanged'],
  accepts: () => [],
  check: (s, step) => {
    assert.equal(selectWatchingOrders(s), s.matches('watching'));
    assert.equal(step.scripts.isOpen('watchMyOrders'), s.matches('watching'), 'the pushes are listened to while watching');
    // every push reads the page again, once
    if (step.event.type === 'order.statusChanged') assert.deepEqual(step.effects.map((e) => e.type), ['ordersChanged']);
    else assert.deepEqual(step.effects, []);
  },
});
