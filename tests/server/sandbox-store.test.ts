// Sandbox state lives in the database: a restarted server (a new app on the same
// database) still knows the charge, the PromptPay source and its QR, and keeps the 2C2P gateway
// key; a charge completed by one instance is seen completed by the other and cannot be completed
// twice. PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, type TestApp } from './support/app';
import { buildApp } from '../../server/app';
import { paymentsContext } from '../../server/payments/plugin';

let t: TestApp;
let second: FastifyInstance | null = null;

beforeAll(async () => {
  t = await testApp({ payments: true });
}, 120_000);

afterAll(async () => {
  await second?.close();
  await t?.close();
});

function restart(): Promise<FastifyInstance> {
  return buildApp({ db: t.db, clock: t.clock, payments: true, config: { outboxDir: t.dirs.outbox, uploadsDir: t.dirs.uploads, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0 } });
}

function secret(app: FastifyInstance): string {
  return `Basic ${Buffer.from(`${paymentsContext(app).payments.config.omise.secretKey}:`).toString('base64')}`;
}

describe('sandbox state in the database', () => {
  it('a restart keeps the charge, the source and its QR, and the 2C2P key; a completion happens once across instances', async () => {
    const first = t.app;
    const key1 = (await first.inject({ url: '/sandbox/2c2p/control/public-key' })).json().spki as string;
    const src = await first.inject({ method: 'POST', url: '/sandbox/omise/sources', headers: { authorization: secret(first) }, payload: { type: 'promptpay', amount: 150000, currency: 'thb' } });
    expect(src.statusCode).toBe(200);
    const chg = await first.inject({ method: 'POST', url: '/sandbox/omise/charges', headers: { authorization: secret(first) }, payload: { amount: 150000, currency: 'thb', source: src.json().id } });
    expect(chg.statusCode).toBe(200);
    const chargeId = chg.json().id as string;

    second = await restart();
    const seen = await second.inject({ url: `/sandbox/omise/charges/${chargeId}`, headers: { authorization: secret(second) } });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: chargeId, status: 'pending', amount: 150000, source: { id: src.json().id } });
    const qr = await second.inject({ url: `/sandbox/omise/qr/${src.json().id}.png` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect((await second.inject({ url: '/sandbox/2c2p/control/public-key' })).json().spki).toBe(key1);
    // The source is used once, whichever instance is asked.
    const again = await second.inject({ method: 'POST', url: '/sandbox/omise/charges', headers: { authorization: secret(second) }, payload: { amount: 150000, currency: 'thb', source: src.json().id } });
    expect(again.statusCode).toBe(400);

    // Both instances mark the charge paid at once: one changes it.
    const [a, b] = await Promise.all([first, second].map((app) => app.inject({ method: 'POST', url: `/sandbox/omise/control/charges/${chargeId}/paid` })));
    expect([a!.json().changed, b!.json().changed].sort()).toEqual([false, true]);
    const after = await first.inject({ url: `/sandbox/omise/charges/${chargeId}`, headers: { authorization: secret(first) } });
    expect(after.json()).toMatchObject({ status: 'successful', paid: true });
    // The event is stored as the webhook goes out (not awaited by the answer): give it a moment.
    const completes = async () =>
      (await first.inject({ url: '/sandbox/omise/control/events' })).json().events.filter((e: { key: string; data: { id: string } }) => e.key === 'charge.complete' && e.data.id === chargeId).length as number;
    for (let i = 0; i < 50 && (await completes()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    expect(await completes()).toBe(1);
  });
});
