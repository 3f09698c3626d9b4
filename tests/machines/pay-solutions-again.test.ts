// PaySolutions paid again after a decline: the order read before the form is posted still carries
// the earlier attempt's failure (outcome failed); that is why the buyer pays again, so the form is
// posted. Only the shop's own rejection stops it.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { paySolutionsMachine } from '../../machines/payments/pay-solutions.machine';
import type { OrderRead } from '../../machines/payments/payment';
import type { FormPost } from '../../machines/shared/effects';
import { order, orderRead } from './models/fixtures';

const answer = {
  success: true as const,
  data: {
    application_id_1: '10012345',
    course_ids: [1],
    action: 'https://payment.paysolutions.asia/epaylink/payment.aspx?lang=TH',
    fields: { customeremail: 'a@example.com', productdetail: 'Course', refno: '50101', merchantid: '10012345', cc: '00' as const, total: '1500.00', lang: 'TH' as 'TH' | 'EN', returnurl: 'https://shop/r', postbackurl: 'https://shop/p' },
  },
};

function run(read: unknown) {
  const posted: FormPost[] = [];
  const machine = paySolutionsMachine.provide({
    actors: { createPaySolutionsPayment: fromPromise(async () => answer), getOrder: fromPromise(async () => read as OrderRead) },
    actions: { postForm: (_: unknown, p: FormPost) => void posted.push(p) },
  });
  const actor = createActor(machine, { input: { order: order(13) } }).start();
  return { actor, posted };
}

describe('PaySolutions: paying again after a failed attempt', () => {
  it('an order whose last attempt failed (outcome failed) still posts the PaySolutions form', async () => {
    const read = orderRead('notYetReceived', 13);
    const failedBefore = { ...read, data: { ...read.data, outcome: { state: 'failed' as const, reason: 'declined' as const, method_id: 13 } } };
    const { actor, posted } = run(failedBefore);
    await waitFor(actor, (s) => s.matches('awaitingReturn'));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ action: answer.data.action, fields: { refno: '50101', total: '1500.00' } });
  });

  it('an order the shop rejected is not posted: back to the order list', async () => {
    const { actor, posted } = run(orderRead('rejected', 13));
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
    expect(posted).toHaveLength(0);
  });
});
