// A QR's expiry is a delay computed from the server's expires_at. A timer cannot hold more than
// 2^31 - 1 ms: Node fires a longer one after 1 ms (with a TimeoutOverflowWarning), so a QR dated far
// ahead would show "expired" at once. The delay is clamped to what a timer holds, and to at least
// one poll. These run on real timers, as the app does.
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { omisePromptPayMachine } from '../../machines/payments/omise-promptpay.machine';
import type { OrderRead } from '../../machines/payments/payment';
import type { OmisePromptPayResponse } from '../../machines/shared/api';
import { order, orderRead } from './models/fixtures';

const DAY = 24 * 60 * 60 * 1000;

function qrAnswer(expiresAt: string): OmisePromptPayResponse {
  return { QrcodeUrl: { image: { download_uri: 'https://example.test/qr.png' } }, expires_at: expiresAt } as unknown as OmisePromptPayResponse;
}

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

/** The machine with the QR created at once, dated expiresAt; the order stays unpaid. */
async function showQr(expiresAt: string) {
  process.on('warning', onWarning);
  const actor = createActor(
    omisePromptPayMachine.provide({
      actors: {
        createOmisePromptPay: fromPromise(async () => qrAnswer(expiresAt)),
        getOrder: fromPromise(async () => orderRead('notYetReceived', 9) as unknown as OrderRead),
        watchOrderStatus: fromCallback(() => () => {}),
      },
    }),
    { input: { order: order(9) } },
  ).start();
  await new Promise((r) => setTimeout(r, 0));
  expect(actor.getSnapshot().matches('awaitingScan')).toBe(true);
  return actor;
}

describe('omisePromptPay: the QR expiry delay is bounded', () => {
  it('a QR dated 100 days ahead is still shown after 50 ms (no timer overflow)', async () => {
    const actor = await showQr(new Date(Date.now() + 100 * DAY).toISOString());
    await new Promise((r) => setTimeout(r, 50));
    expect(actor.getSnapshot().matches('awaitingScan')).toBe(true);
    expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([]);
    actor.stop();
  });

  it('a QR dated in the past still waits one poll before expiring', async () => {
    const actor = await showQr(new Date(Date.now() - DAY).toISOString());
    await new Promise((r) => setTimeout(r, 50));
    expect(actor.getSnapshot().matches('awaitingScan')).toBe(true);
    actor.stop();
  });

  it('the delay is the time left, at least one poll (6 s), at most 2^31 - 1 ms', () => {
    const delay = omisePromptPayMachine.implementations.delays.qrExpiry as (args: { context: { expiresAt: string | null } }) => number;
    const at = (ms: number) => delay({ context: { expiresAt: new Date(Date.now() + ms).toISOString() } });
    expect(at(1000 * DAY)).toBe(2 ** 31 - 1);
    expect(at(-DAY)).toBe(6000);
    expect(delay({ context: { expiresAt: null } })).toBe(6000);
    const tenMinutes = at(10 * 60 * 1000);
    expect(tenMinutes).toBeGreaterThan(10 * 60 * 1000 - 1000);
    expect(tenMinutes).toBeLessThanOrEqual(10 * 60 * 1000);
  });
});
