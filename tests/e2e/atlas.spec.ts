/**
 * The flow atlas in Chromium, on the Vite dev server (as `npm run dev` serves it; no shop needed):
 * it follows a scripted actor inspected through `?inspect=atlas` in another tab (state
 * highlighted, the transition taken marked, the context shown, an atlas opened late catches up),
 * and draws the coverage reports on the chart. Port: E2E_PORT + 9.
 */
import { expect, test, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';

const PORT = Number(process.env.E2E_PORT ?? 5201) + 9;
const BASE = `http://127.0.0.1:${PORT}`;
let vite: ViteDevServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  vite = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    server: { port: PORT, strictPort: true, host: '127.0.0.1', hmr: false },
    optimizeDeps: { include: ['xstate', '@statelyai/inspect', 'zod/mini'] },
  });
  await vite.listen();
});

test.afterAll(async () => {
  await vite?.close();
});

const state = (atlas: Page, path: string) => atlas.locator(`#chart g.state[data-path="${path}"]`);

test('the live view follows a scripted actor in another tab', async ({ context }) => {
  const app = await context.newPage();
  await app.goto(`${BASE}/docs/machines/README.md`);
  await app.evaluate(async () => {
    const probe = (await import('/tests/e2e/atlas/probe.ts' as string)) as { startShipping: () => void };
    probe.startShipping();
    (window as unknown as { __probe: { send: (e: unknown) => void } }).__probe.send({ type: 'address.new' });
  });

  // opened after the actor started: the app tab replays what it runs
  const atlas = await context.newPage();
  await atlas.goto(`${BASE}/__atlas/`);
  await expect(atlas.getByTestId('live-actors').getByRole('button', { name: /shippingAddress/ })).toBeVisible();
  await atlas.getByTestId('live-actors').getByRole('button', { name: /shippingAddress/ }).click();
  await expect(state(atlas, 'editing')).toHaveClass(/\bactive\b/);
  await expect(state(atlas, 'listing')).not.toHaveClass(/\bactive\b/);

  const send = (e: unknown) => app.evaluate((ev) => (window as unknown as { __probe: { send: (e: unknown) => void } }).__probe.send(ev), e);
  await send({ type: 'form.update', values: { name: 'Somchai', tel: '0812345679', address: '5 Soi 1', sub_district: 'Lumphini', district: 'Pathum Wan', province: 'Bangkok', postcode: '10330' } });
  await expect(atlas.getByTestId('live-context')).toContainText('Somchai');
  // an internal transition: marked on its line inside the state
  await expect(atlas.locator('#chart text[data-transition="shippingAddress.editing | form.update #0"]')).toHaveClass(/\bfired\b/);

  await send({ type: 'form.submit' });
  await expect(state(atlas, 'creating')).toHaveClass(/\bactive\b/);
  await expect(state(atlas, 'editing')).not.toHaveClass(/\bactive\b/);
  await expect(atlas.locator('#chart g.transition[data-transition="shippingAddress.editing | form.submit #0"]')).toHaveClass(/\bfired\b/);
  await expect(atlas.getByTestId('live-event')).toHaveText('form.submit');

  await app.evaluate(() =>
    (window as unknown as { __probe: { saved: (a: unknown) => void } }).__probe.saved({ id: 7, name: 'Somchai', tel: '0812345679', address: '5 Soi 1', sub_district: 'Lumphini', district: 'Pathum Wan', province: 'Bangkok', postcode: '10330', is_default: true }),
  );
  await expect(state(atlas, 'listing')).toHaveClass(/\bactive\b/);
  await expect(atlas.locator('#chart g.transition[data-transition="shippingAddress.creating | xstate.done.actor.createShippingAddress #0"]')).toHaveClass(/\bfired\b/);
  await expect(atlas.getByTestId('live-state')).toHaveText('"listing"');
  // exactly one state of this flat machine is highlighted besides the root
  await expect(atlas.locator('#chart g.state.active')).toHaveCount(2);
});

test('the coverage reports are drawn on the chart, the named gaps with their reason', async ({ page }) => {
  const model = { machines: { scbQr: { walkedStates: ['scbQr', 'scbQr.creatingQr'], walkedTransitions: ['scbQr.creatingQr | xstate.error.actor.createScbQrCode #0', 'scbQr.creatingQr | xstate.done.actor.createScbQrCode #0'] } } };
  const e2e = {
    tests: 1,
    machines: { scbQr: { walkedStates: ['scbQr'], walkedTransitions: ['scbQr.creatingQr | xstate.done.actor.createScbQrCode #0'] } },
    knownGaps: { 'scbQr.expired': 'engine: the countdown is not walked' },
  };
  await page.route('**/__atlas/reports/machines.json', (r) => r.fulfill({ json: model }));
  await page.route('**/__atlas/reports/e2e.json', (r) => r.fulfill({ json: e2e }));
  await page.goto(`${BASE}/__atlas/?coverage=1#machine=scbQr`);
  const t = (key: string) => page.locator(`#chart [data-transition="${key}"]`).first();
  await expect(t('scbQr.creatingQr | xstate.done.actor.createScbQrCode #0')).toHaveClass(/cov-both/);
  await expect(t('scbQr.creatingQr | xstate.error.actor.createScbQrCode #0')).toHaveClass(/cov-model/);
  const total = await page.locator('#chart [data-transition]').evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-transition'))).size);
  await expect(page.getByTestId('coverage-legend').locator('li[data-walked="never"] b')).toHaveText(String(total - 2));
  await expect(page.locator('#chart g.state[data-state="scbQr.expired"]')).toHaveClass(/\bgap\b/);
  await expect(page.getByTestId('coverage-gaps')).toContainText('engine: the countdown is not walked');
});

test('search narrows the machines and marks what matches', async ({ page }) => {
  await page.goto(`${BASE}/__atlas/`);
  await page.getByRole('searchbox').fill('createOmisePromptPay');
  await expect(page.locator('#machines button')).toHaveText([/omisePromptPay/]);
  await page.getByRole('searchbox').press('Enter');
  await expect(page.locator('#chart svg[data-machine="omisePromptPay"]')).toBeVisible();
  expect(await page.locator('#chart .match').count()).toBeGreaterThan(0);
});
