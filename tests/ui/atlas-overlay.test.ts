/**
 * The flow atlas's overlays on a real drawing (docs/machines/omiseCard.svg): the coverage colours
 * are exactly the reports' (walked in both, model tests only, browser only, never; the named gaps
 * marked with their reason), and the live view's state and transition come from the snapshots.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { definitionOf } from '../machines/support/coverage';
import { activePaths, applyCoverage, clearCoverage, firedTransitions, showLive, walkedIn, type E2eReport, type ModelReport } from '../../src/atlas/overlay';

const SVG = readFileSync(join(process.cwd(), 'docs', 'machines', 'omiseCard.svg'), 'utf8');
const def = definitionOf(omiseCardMachine);
const keys = [...def.transitions.keys()];
const states = [...def.states];

let svg: SVGSVGElement;
beforeEach(() => {
  document.body.innerHTML = SVG;
  svg = document.querySelector('svg')!;
});

describe('coverage on the chart', () => {
  // model tests: all but the last three transitions; browser: every third one and a key the model lacks
  const model: ModelReport = { machines: { omiseCard: { walkedStates: states.slice(0, -2), walkedTransitions: keys.slice(0, -3) } } };
  const e2e: E2eReport = {
    tests: 4,
    machines: { omiseCard: { walkedStates: states.filter((_, i) => i % 2 === 0), walkedTransitions: [...keys.filter((_, i) => i % 3 === 0), keys.at(-1)!] } },
    knownGaps: { 'omiseCard.closed': 'app: no page sends payment.abandon here', 'scbQr.expired': 'another machine' },
  };

  it('colours every transition and state as the reports say, and counts them', () => {
    const summary = applyCoverage(svg, 'omiseCard', model, e2e);
    const mt = new Set(model.machines.omiseCard!.walkedTransitions);
    const bt = new Set(e2e.machines.omiseCard!.walkedTransitions);
    const elements = [...svg.querySelectorAll('[data-transition]')];
    expect(new Set(elements.map((e) => e.getAttribute('data-transition')))).toEqual(new Set(keys));
    for (const el of elements) {
      const classes = [...el.classList].filter((c) => c.startsWith('cov-'));
      expect(classes, el.getAttribute('data-transition')!).toEqual([`cov-${walkedIn(el.getAttribute('data-transition')!, mt, bt)}`]);
    }
    const expected = { both: 0, model: 0, browser: 0, never: 0 };
    for (const k of keys) expected[walkedIn(k, mt, bt)] += 1;
    expect(summary.transitions).toEqual(expected);
    expect(expected.browser).toBeGreaterThan(0);
    expect(expected.never).toBeGreaterThan(0);
    expect(expected.both).toBeGreaterThan(0);
    const ms = new Set(model.machines.omiseCard!.walkedStates);
    const bs = new Set(e2e.machines.omiseCard!.walkedStates);
    for (const el of svg.querySelectorAll('g.state[data-state]')) {
      expect(el.classList.contains(`cov-${walkedIn(el.getAttribute('data-state')!, ms, bs)}`)).toBe(true);
    }
  });

  it('marks the named gaps of this machine with their reason', () => {
    const summary = applyCoverage(svg, 'omiseCard', model, e2e);
    expect(summary.gaps).toEqual([{ state: 'omiseCard.closed', reason: 'app: no page sends payment.abandon here' }]);
    const gap = svg.querySelector('g.state[data-state="omiseCard.closed"]')!;
    expect(gap.classList.contains('gap')).toBe(true);
    expect(gap.querySelector('.gap-badge title')!.textContent).toBe('known gap: app: no page sends payment.abandon here');
    expect(svg.querySelectorAll('.gap')).toHaveLength(1);
    clearCoverage(svg);
    expect(svg.querySelectorAll('.gap, .gap-badge, .cov-both, .cov-never')).toHaveLength(0);
  });

  it('without reports every transition is never walked', () => {
    const summary = applyCoverage(svg, 'omiseCard', null, null);
    expect(summary.transitions).toEqual({ both: 0, model: 0, browser: 0, never: keys.length });
    expect(summary.hasModel || summary.hasBrowser).toBe(false);
  });
});

describe('live state on the chart', () => {
  it('active paths of a state value (nested and parallel)', () => {
    expect(activePaths('editing')).toEqual(new Set(['', 'editing']));
    expect(activePaths({ paying: 'bankTransfer' })).toEqual(new Set(['', 'paying', 'paying.bankTransfer']));
    expect(activePaths({ awaitingScan: { qr: 'shown', push: 'listening' } })).toEqual(new Set(['', 'awaitingScan', 'awaitingScan.qr', 'awaitingScan.qr.shown', 'awaitingScan.push', 'awaitingScan.push.listening']));
  });

  it('marks the state and the transition an event took, from the snapshots before and after', () => {
    const fired = firedTransitions(svg, 'card.tokenized', activePaths('enteringCard'), activePaths('charging'));
    expect(fired.map((f) => f.getAttribute('data-transition'))).toEqual(['omiseCard.enteringCard | card.tokenized #0']);
    showLive(svg, activePaths('charging'), fired);
    expect([...svg.querySelectorAll('g.state.active')].map((e) => e.getAttribute('data-state'))).toEqual(['omiseCard', 'omiseCard.charging']);
    expect(svg.querySelector('.fired')!.getAttribute('data-transition')).toBe('omiseCard.enteringCard | card.tokenized #0');
    // a guarded alternative: the one whose target was reached
    const done = firedTransitions(svg, 'xstate.done.actor.chargeOmiseCard', activePaths('charging'), activePaths('awaitingAuthorization'));
    expect(done.map((f) => f.getAttribute('data-transition'))).toEqual(['omiseCard.charging | xstate.done.actor.chargeOmiseCard #2']);
    // a delay
    const after = firedTransitions(svg, 'xstate.after.pollInterval.omiseCard.awaitingConfirmation', activePaths('awaitingConfirmation'), activePaths('reconciling'));
    expect(after.map((f) => f.getAttribute('data-transition'))).toEqual(['omiseCard.awaitingConfirmation | xstate.after.pollInterval.omiseCard.awaitingConfirmation #0']);
    // an event the state does not take: nothing
    expect(firedTransitions(svg, 'card.close', activePaths('charging'), activePaths('charging'))).toEqual([]);
  });
});

describe('live state through transient states (the checkout)', () => {
  it('an order created goes through orderCreated and paying.routing to the method: all three transitions marked', () => {
    document.body.innerHTML = readFileSync(join(process.cwd(), 'docs', 'machines', 'checkout.svg'), 'utf8');
    const chart = document.querySelector('svg')!;
    const fired = firedTransitions(chart, 'xstate.done.actor.createOrder', activePaths({ creatingOrder: 'postingOrder' }), activePaths({ paying: 'bankTransfer' }));
    expect(fired.map((f) => f.getAttribute('data-transition')).sort()).toEqual([
      'checkout.creatingOrder.postingOrder | xstate.done.actor.createOrder #0',
      'checkout.orderCreated | always #1',
      'checkout.paying.routing | always #0',
    ]);
  });
});

describe('live state: eventless transitions only where the event led', () => {
  it('a refused order back in editing does not mark the order checks it never went through', () => {
    document.body.innerHTML = readFileSync(join(process.cwd(), 'docs', 'machines', 'checkout.svg'), 'utf8');
    const chart = document.querySelector('svg')!;
    const fired = firedTransitions(chart, 'xstate.error.actor.createOrder', activePaths({ creatingOrder: 'postingOrder' }), activePaths('editing'));
    const keys = fired.map((f) => f.getAttribute('data-transition')!);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith('checkout.creatingOrder.postingOrder | xstate.error.actor.createOrder #'))).toBe(true);
  });
});
