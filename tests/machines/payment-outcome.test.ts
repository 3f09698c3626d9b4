// A payment machine waiting on an order (QR poll, return page) stops when the server says
// the latest attempt failed, not only when the order is rejected.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { isRejected } from '../../machines/payments/payment';
import { scbQrMachine } from '../../machines/payments/scb-qr.machine';
import { scripted } from '../support/ui-actors';
import { order, orderRead } from './models/fixtures';

describe('isRejected reads the outcome', () => {
  it('rejected orders and failed latest attempts end the wait; a waiting order does not', () => {
    expect(isRejected({ payment_status: 'rejected' })).toBe(true);
    expect(isRejected({ payment_status: 'notYetReceived', outcome: { state: 'failed', reason: 'expired', method_id: 4 } })).toBe(true);
    expect(isRejected({ payment_status: 'notYetReceived', outcome: { state: 'awaitingPayment', reason: null, method_id: 4 } })).toBe(false);
    expect(isRejected({ payment_status: 'notYetReceived' })).toBe(false);
  });

  it('SCB QR: Done on an order whose QR expired goes to the order list, never the thank-you page', async () => {
    const read = orderRead('notYetReceived');
    const s = scripted({
      createScbQrCode: { ok: { status: { code: 1000, description: 'Success' }, data: { qrRawData: 'x', qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 15, expires_at: '2030-01-01T00:15:00Z' } } },
      getOrder: { ok: { ...read, data: { ...read.data, outcome: { state: 'failed', reason: 'expired', method_id: 4 } } } },
    });
    const actor = createActor(scbQrMachine.provide({ actors: s.actors }), { input: { order: order(4) } }).start();
    await waitFor(actor, (x) => x.matches('awaitingScan'));
    actor.send({ type: 'qr.done' });
    const done = await waitFor(actor, (x) => x.status === 'done');
    expect(done.value).toBe('rejected');
    expect(done.output).toEqual({ result: 'toOrders' });
  });
});
