/**
 * Flows that leave the page persist the whole checkout (actor.getPersistedSnapshot(), children
 * included) through the injected persistSnapshot action; a refresh or a return restores it and
 * continues with the same order — no second createOrder.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor, type AnyActorRef, type Snapshot } from 'xstate';
import type { CreateOrderResponse, OmiseCardChargeResponse, OmiseChargeRequest, OmisePromptPayResponse } from '../../machines/shared/api';
import type { OrderRead } from '../../machines/payments/payment';
import { checkoutMachine, type CreateOrderInput } from '../../machines/checkout/checkout.machine';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { omisePromptPayMachine } from '../../machines/payments/omise-promptpay.machine';
import { bankTransferMachine } from '../../machines/payments/bank-transfer.machine';
import { createFlowPersistence, FLOW_ROOT, type FlowStorage } from '../../machines/shared/persistence';
import { cartInput } from './models/cart-fixtures';
import { orderRead, student } from './models/fixtures';

function memoryStorage(): FlowStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, save: (k, v) => void data.set(k, v), load: (k) => data.get(k) ?? null, remove: (k) => void data.delete(k) };
}

const created: CreateOrderResponse = {
  success: true as const,
  orderId: 501,
  order_detail: {
    id: 501, payment_status: 'notYetReceived', price: 150000, discount: 0, withholding_price: 0, shipping_fee: 0, total_amount: 150000,
    currency_code: 'THB', coupon_list_code: [], order_course_list: [], order_token: 'tok-501', cancel_at: '2030-01-02T00:00:00Z',
  },
};

const input = (methodId: number) => ({
  cart: cartInput({ paymentMethods: [{ id: methodId, name: 'm' }], paymentMethodId: methodId }),
  user: student,
  layout: 3 as const,
  registrationOnPage: false,
  usernameRegistration: false,
  thankYouPage: true,
  slipRequired: false,
  taxSettings: {},
});

/** The app's assembly, with fake API actors: counts createOrder calls and records navigations. */
function assemble(storage: FlowStorage, orderStatus: () => 'approved' | 'notYetReceived') {
  const persistence = createFlowPersistence(storage);
  const log = { createOrder: [] as CreateOrderInput[], navigations: [] as string[] };
  const effects = {
    ...persistence.actions,
    navigate: (_: unknown, p: { to: string }) => void log.navigations.push(p.to),
  };
  const getOrder = fromPromise<OrderRead, { orderId: number }>(async () => orderRead(orderStatus(), 8) as OrderRead);
  const logic = checkoutMachine.provide({
    actions: effects,
    actors: {
      createOrder: fromPromise<CreateOrderResponse, CreateOrderInput>(async ({ input }) => {
        log.createOrder.push(input);
        return created;
      }),
      clearCart: fromPromise(async () => ({ success: true as const })),
      omiseCard: omiseCardMachine.provide({
        actions: effects,
        actors: {
          getOmiseCardPublicKey: fromPromise(async () => ({ success: true as const, publicKey: 'pkey_test_1' })),
          chargeOmiseCard: fromPromise<OmiseCardChargeResponse, OmiseChargeRequest>(async () => ({
            success: true,
            status: 'pending',
            chargesDetails: { last_digits: '4242', bank: null },
            charges: { id: 'chrg_1', authorize_uri: 'https://api.omise.test/3ds/chrg_1' },
          })),
          getOrder,
        },
      }),
      omisePromptPay: omisePromptPayMachine.provide({
        actions: effects,
        actors: {
          createOmisePromptPay: fromPromise<OmisePromptPayResponse, OmiseChargeRequest>(async () => ({
            success: true,
            QrcodeUrl: { image: { download_uri: 'https://api.omise.test/qr.svg' } },
            charge_id: 'chrg_2',
            expires_at: '2030-01-01T00:00:00Z',
          })),
          getOrder,
        },
      }),
    },
  });
  return { logic, log };
}

const child = (actor: AnyActorRef, id: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[id]!;
const settle = () => new Promise((r) => setImmediate(r));

/** A PromptPay order whose QR is shown (the flow saved), then the page is gone. */
async function leaveWithQrShown(logic: ReturnType<typeof assemble>['logic']): Promise<void> {
  const first = createActor(logic, { input: input(9), systemId: FLOW_ROOT });
  first.start();
  first.send({ type: 'checkout.submit' });
  await waitFor(first, (s) => s.matches({ paying: 'omisePromptPay' }));
  await waitFor(child(first, 'omisePromptPay'), (s) => s.matches('awaitingScan'));
  await settle();
  first.stop();
}

describe('a flow that leaves the page resumes the same order', () => {
  it('3-D Secure: persisted before the redirect, restored on return, reconciled by reading the order', async () => {
    const storage = memoryStorage();
    let status: 'approved' | 'notYetReceived' = 'notYetReceived';
    const app = assemble(storage, () => status);

    // Before leaving: submit, order, Omise form, pending charge -> 3-D Secure.
    const first = createActor(app.logic, { input: input(8), systemId: FLOW_ROOT });
    first.start();
    first.send({ type: 'checkout.submit' });
    await waitFor(first, (s) => s.matches({ paying: 'omiseCard' }));
    const card = child(first, 'omiseCard');
    await waitFor(card, (s) => s.matches('enteringCard'));
    card.send({ type: 'card.tokenized', token: 'tokn_test_1' });
    await waitFor(card, (s) => s.matches('awaitingAuthorization'));
    await settle();
    expect(app.log.navigations).toEqual(['https://api.omise.test/3ds/chrg_1']);
    expect(app.log.createOrder).toHaveLength(1);
    const saved = storage.data.get('checkout-flow');
    expect(saved).toBeTruthy();
    first.stop(); // the page is gone

    // The return page: restore the saved snapshot and resume.
    status = 'approved';
    const clock = new SimulatedClock();
    const persisted = createFlowPersistence(storage).restore();
    const second = createActor(app.logic, { snapshot: persisted as Snapshot<unknown>, input: input(8), systemId: FLOW_ROOT, clock });
    second.start();
    expect(second.getSnapshot().matches({ paying: 'omiseCard' })).toBe(true);
    expect(child(second, 'omiseCard').getSnapshot().value).toBe('awaitingAuthorization');
    expect(second.getSnapshot().context.order).toEqual({ id: 501, token: 'tok-501', total: 150000, methodId: 8 });

    second.send({ type: 'payment.resume' });
    await waitFor(second, (s) => s.matches('leaving'));
    clock.increment(500);
    expect(second.getSnapshot().status).toBe('done');
    expect(second.getSnapshot().output).toEqual({ orderId: 501, to: '/thankyou?orderId=tok-501' });
    expect(app.log.navigations.at(-1)).toBe('/thankyou?orderId=tok-501');
    // One order for the whole flow; the saved flow is forgotten once it ended.
    expect(app.log.createOrder).toHaveLength(1);
    expect(storage.data.has('checkout-flow')).toBe(false);
  });

  it('PromptPay QR: a refresh restores the QR and reads the order at once', async () => {
    const storage = memoryStorage();
    let status: 'approved' | 'notYetReceived' = 'notYetReceived';
    const app = assemble(storage, () => status);
    await leaveWithQrShown(app.logic);

    status = 'approved';
    const second = createActor(app.logic, { snapshot: createFlowPersistence(storage).restore() as Snapshot<unknown>, input: input(9), systemId: FLOW_ROOT, clock: new SimulatedClock() });
    second.start();
    const qr = child(second, 'omisePromptPay');
    expect(qr.getSnapshot().context.qrImageUrl).toBe('https://api.omise.test/qr.svg');
    second.send({ type: 'payment.resume' });
    await waitFor(second, (s) => s.matches('leaving'));
    expect(app.log.createOrder).toHaveLength(1);
  });

  it('PromptPay QR: a restored QR still expires (a restored snapshot has no timers; resume schedules them again)', async () => {
    const storage = memoryStorage();
    const app = assemble(storage, () => 'notYetReceived');
    await leaveWithQrShown(app.logic);

    const clock = new SimulatedClock();
    const second = createActor(app.logic, { snapshot: createFlowPersistence(storage).restore() as Snapshot<unknown>, input: input(9), systemId: FLOW_ROOT, clock });
    second.start();
    second.send({ type: 'payment.resume' });
    const qr = child(second, 'omisePromptPay');
    await waitFor(qr, (s) => s.matches({ awaitingScan: { poll: 'waiting' } }));
    // the poll runs again (every 6 s) ...
    clock.increment(6000);
    await waitFor(qr, (s) => s.matches({ awaitingScan: { poll: 'waiting' } }));
    expect(qr.getSnapshot().matches('awaitingScan')).toBe(true);
    // ... and the QR expires at its expires_at (2030-01-01 in this fixture)
    clock.increment(Date.parse('2030-01-01T00:00:00Z') - Date.now() + 1000);
    expect(qr.getSnapshot().value).toBe('expired');
    expect(app.log.createOrder).toHaveLength(1);
  });

  it('a double click creates one order; a retry after no answer reuses the Idempotency-Key', async () => {
    let attempt = 0;
    const keys: string[] = [];
    const logic = checkoutMachine.provide({
      actors: {
        createOrder: fromPromise<CreateOrderResponse, CreateOrderInput>(async ({ input }) => {
          keys.push(input.idempotencyKey);
          attempt += 1;
          if (attempt === 1) throw Object.assign(new Error('Failed to fetch'), { status: 0, code: 'NETWORK_ERROR', msg: 'Failed to fetch' });
          return created;
        }),
        bankTransfer: bankTransferMachine,
      },
    });
    const actor = createActor(logic, { input: input(1) });
    actor.start();
    actor.send({ type: 'checkout.submit' });
    expect(actor.getSnapshot().can({ type: 'checkout.submit' })).toBe(false);
    actor.send({ type: 'checkout.submit' }); // the second click of a double click is not taken
    await waitFor(actor, (s) => s.matches('editing'));
    expect(keys).toHaveLength(1);
    actor.send({ type: 'checkout.submit' }); // retry of the same click
    await waitFor(actor, (s) => s.matches('paying'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });
});
